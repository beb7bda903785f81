import Accounts
import Hummingbird
import Storage

/// `/v1/account`: what every logged-in user may do to the account it is
/// logged in with (SPEC A2): change its password.
struct OwnAccountController: Sendable {
    let accounts: AccountService
    /// Wrong passwords per (username, client address), shared with logins,
    /// so that a session cannot be used to guess its account's password.
    let throttle: LoginThrottle
    /// Who the client is behind a reverse proxy.
    let proxies: TrustedProxies

    func addRoutes(to group: RouterGroup<APIRequestContext>) {
        group.put("password", use: changePassword)
    }

    /// `PUT /v1/account/password` `{"currentPassword", "newPassword"}`: 204;
    /// every other session of the account ends (its push sockets close
    /// with 4004) and the account is told by e-mail. 400 naming the rules
    /// the new password breaks; 422 when the current one is wrong; 429 after
    /// wrong passwords, as for logins.
    @Sendable func changePassword(_ request: Request, context: APIRequestContext) async throws -> Response {
        let caller = try context.requireCaller(in: Set(Role.allCases))
        let body = try await request.decode(as: PasswordChangeBody.self, context: context)
        guard let session = caller.session else {
            throw Problem.unauthorized("no session to change the password on: log in with POST /v1/sessions")
        }
        let address = proxies.clientAddress(of: request, peer: context.remoteAddress)
        try throttle.check(username: caller.username, address: address)
        do {
            try await accounts.changePassword(on: session, current: body.currentPassword, new: body.newPassword)
        } catch {
            if case .wrongCurrentPassword = error { throttle.failed(username: caller.username, address: address) }
            throw error
        }
        throttle.succeeded(username: caller.username, address: address)
        return Response(status: .noContent)
    }
}

/// The body of `PUT /v1/account/password`.
struct PasswordChangeBody: Codable, Sendable {
    /// The password the account has now.
    var currentPassword: String
    /// The password it is to have: 8 characters or more, with a digit and a
    /// character that is neither a letter nor a digit.
    var newPassword: String
}
