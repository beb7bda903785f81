import Accounts
import Hummingbird
import Storage

/// `/v1/account`: what every logged-in user may do to the account it is
/// logged in with (SPEC A2): change its password and its e-mail address.
struct OwnAccountController: Sendable {
    let accounts: AccountService
    /// Wrong passwords per (username, client address), shared with logins,
    /// so that a session cannot be used to guess its account's password.
    let throttle: LoginThrottle
    /// Who the client is behind a reverse proxy.
    let proxies: TrustedProxies

    func addRoutes(to group: RouterGroup<APIRequestContext>) {
        group.put("password", use: changePassword)
        group.put("email", use: changeEmail)
    }

    /// `PUT /v1/account/password` `{"currentPassword", "newPassword"}`: 204;
    /// every other session of the account ends (its push sockets close
    /// with 4004) and the account is told by e-mail. 400 naming the rules
    /// the new password breaks; 422 when the current one is wrong; 429 after
    /// wrong passwords, as for logins.
    @Sendable func changePassword(_ request: Request, context: APIRequestContext) async throws -> Response {
        let body = try await request.decode(as: PasswordChangeBody.self, context: context)
        try await checkingPassword(request, context: context) { session in
            try await accounts.changePassword(on: session, current: body.currentPassword, new: body.newPassword)
        }
        return Response(status: .noContent)
    }

    /// `PUT /v1/account/email` `{"password", "email"}` → 202: the new
    /// address gets a confirmation e-mail whose token
    /// (`POST /v1/passengers/confirmations`, for every role) moves the
    /// account to it; until then the old address stays, and it is told.
    /// 400 an address that cannot be one; 409 one another account has; 422
    /// a wrong password; 429 after wrong passwords, as for logins.
    @Sendable func changeEmail(_ request: Request, context: APIRequestContext) async throws -> Response {
        let body = try await request.decode(as: EmailChangeBody.self, context: context)
        let account = try await checkingPassword(request, context: context) { session in
            try await accounts.requestEmailChange(on: session, password: body.password, newEmail: body.email)
        }
        return try JSONResponse.accepted(EmailChangeAcceptedJSON(
            account: AccountJSON(account),
            detail: "a confirmation e-mail went to \(body.email): the account moves to that address once its link is opened or its token confirmed"))
    }

    /// Runs `change` on the caller's session, counting a wrong password
    /// against the throttle the logins share.
    private func checkingPassword<T>(
        _ request: Request, context: APIRequestContext, _ change: (AuthenticatedSession) async throws -> T
    ) async throws -> T {
        let caller = try context.requireCaller(in: Set(Role.allCases))
        guard let session = caller.session else {
            throw Problem.unauthorized("no session to change the account on: log in with POST /v1/sessions")
        }
        let address = proxies.clientAddress(of: request, peer: context.remoteAddress)
        try throttle.check(username: caller.username, address: address)
        do {
            let result = try await change(session)
            throttle.succeeded(username: caller.username, address: address)
            return result
        } catch {
            if case .wrongCurrentPassword? = error as? AccountError { throttle.failed(username: caller.username, address: address) }
            throw error
        }
    }
}

/// The body of `PUT /v1/account/email`.
struct EmailChangeBody: Codable, Sendable {
    /// The account's password, which proves the change is its owner's.
    var password: String
    /// The address the account is to have.
    var email: String
}

/// The answer to `PUT /v1/account/email`.
struct EmailChangeAcceptedJSON: Encodable, Sendable {
    /// The account as it is, still with the old address.
    var account: AccountJSON
    var detail: String
}

/// The body of `PUT /v1/account/password`.
struct PasswordChangeBody: Codable, Sendable {
    /// The password the account has now.
    var currentPassword: String
    /// The password it is to have: 8 characters or more, with a digit and a
    /// character that is neither a letter nor a digit.
    var newPassword: String
}
