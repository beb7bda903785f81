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

    /// `POST /v1/passengers` `{"username", "email", "password"}` → 202 and
    /// an e-mail to the address: the confirmation token, or, when the
    /// address already has an account, that account's username (the answer
    /// is the same, so it tells no one which addresses are customers'). 400
    /// names every failed rule, 409 a taken username.
    @Sendable func register(_ request: Request, context: APIRequestContext) async throws -> Response {
        try limiter.attempt("register-address:\(proxies.clientAddress(of: request, peer: context.remoteAddress))", what: "registration")
        let body = try await request.decode(as: RegistrationBody.self, context: context)
        try await accounts.registerPassenger(username: body.username, email: body.email, password: body.password)
        return try JSONResponse.accepted(RegistrationAcceptedJSON(username: body.username, email: body.email))
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

/// The answer to `POST /v1/passengers`, the same whether the address was
/// new or already had an account.
struct RegistrationAcceptedJSON: Encodable, Sendable {
    var username: String
    var email: String
    var detail: String

    init(username: String, email: String) {
        self.username = username
        self.email = email
        detail = "an e-mail went to \(email): confirm the address with its token, then log in"
    }
}

/// The body of `POST /v1/passengers/confirmations`.
struct ConfirmationBody: Codable, Sendable {
    /// The token of the confirmation e-mail.
    var token: String
}
