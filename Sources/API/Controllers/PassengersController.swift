import Accounts
import Hummingbird
import Storage

/// `/v1/passengers`: registration and e-mail confirmation (SPEC A2), which
/// anyone may call, within a rate limit per client address.
struct PassengersController: Sendable {
    let accounts: AccountService
    let limiter: AttemptLimiter
    /// Who the client is behind a reverse proxy.
    let proxies: TrustedProxies

    func addRoutes(to group: RouterGroup<APIRequestContext>) {
        group.post(use: register)
        group.post("confirmations", use: confirm)
    }

    /// `POST /v1/passengers` `{"username", "email", "password"}` → 201; the
    /// confirmation e-mail with its token goes to the outbox. 400 names
    /// every failed rule, 409 the taken username or address.
    @Sendable func register(_ request: Request, context: APIRequestContext) async throws -> Response {
        try limiter.attempt("register-address:\(proxies.clientAddress(of: request, peer: context.remoteAddress))", what: "registration")
        let body = try await request.decode(as: RegistrationBody.self, context: context)
        let account = try await accounts.registerPassenger(username: body.username, email: body.email, password: body.password)
        return try JSONResponse.created(AccountJSON(account), location: "/v1/passengers/\(account.username)")
    }

    /// `POST /v1/passengers/confirmations` `{"token"}`: confirms the e-mail
    /// address of the token's account, which can log in from then on.
    @Sendable func confirm(_ request: Request, context: APIRequestContext) async throws -> Response {
        try limiter.attempt("confirm-address:\(proxies.clientAddress(of: request, peer: context.remoteAddress))", what: "confirmation")
        let body = try await request.decode(as: ConfirmationBody.self, context: context)
        return try JSONResponse.ok(AccountJSON(try await accounts.confirmEmail(token: body.token)))
    }
}

/// The body of `POST /v1/passengers`.
struct RegistrationBody: Codable, Sendable {
    var username: String
    var email: String
    var password: String
}

/// The body of `POST /v1/passengers/confirmations`.
struct ConfirmationBody: Codable, Sendable {
    /// The token of the confirmation e-mail.
    var token: String
}
