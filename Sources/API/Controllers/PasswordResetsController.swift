import Accounts
import Hummingbird
import Storage

/// `/v1/password-resets`: "forgot password" (SPEC A2), which anyone may
/// call, within a rate limit per client address: an e-mail with a one-time
/// token to the account's address, and the token back with a new password.
struct PasswordResetsController: Sendable {
    let accounts: AccountService
    let limiter: AttemptLimiter
    /// Who the client is behind a reverse proxy.
    let proxies: TrustedProxies

    func addRoutes(to group: RouterGroup<APIRequestContext>) {
        group.post(use: request)
        group.post("confirmations", use: confirm)
    }

    /// `POST /v1/password-resets` `{"email"}` → 202: when an account that
    /// is not disabled has the address, it gets an e-mail with a token that
    /// sets a new password, once, within an hour. The answer is the same
    /// either way, so it tells no one which addresses are customers'.
    @Sendable func request(_ request: Request, context: APIRequestContext) async throws -> Response {
        try limiter.attempt("password-reset:\(proxies.clientAddress(of: request, peer: context.remoteAddress))", what: "password reset")
        let body = try await request.decode(as: PasswordResetRequestBody.self, context: context)
        try await accounts.requestPasswordReset(email: body.email)
        return try JSONResponse.accepted(PasswordResetAcceptedJSON(
            email: body.email,
            detail: "if an account has the address \(body.email), an e-mail went to it: set a new password with its token within an hour"))
    }

    /// `POST /v1/password-resets/confirmations` `{"token", "newPassword"}` → 204:
    /// the account has the new password, every session of it ended (push
    /// sockets close with 4004), and it is told by e-mail. 400 naming the
    /// rules the password breaks; 422 a token unknown, used or expired.
    @Sendable func confirm(_ request: Request, context: APIRequestContext) async throws -> Response {
        try limiter.attempt("password-reset:\(proxies.clientAddress(of: request, peer: context.remoteAddress))", what: "password reset")
        let body = try await request.decode(as: PasswordResetBody.self, context: context)
        try await accounts.resetPassword(token: body.token, newPassword: body.newPassword)
        return Response(status: .noContent)
    }
}

/// The body of `POST /v1/password-resets`.
struct PasswordResetRequestBody: Codable, Sendable {
    /// The account's e-mail address.
    var email: String
}

/// The answer to `POST /v1/password-resets`, the same whether an account has the address or not.
struct PasswordResetAcceptedJSON: Encodable, Sendable {
    var email: String
    var detail: String
}

/// The body of `POST /v1/password-resets/confirmations`.
struct PasswordResetBody: Codable, Sendable {
    /// The token of the "forgot password" e-mail.
    var token: String
    /// The password the account is to have.
    var newPassword: String
}
