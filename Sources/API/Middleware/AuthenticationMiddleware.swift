import Accounts
import Foundation
import Hummingbird
import Storage

/// Puts the account behind `Authorization: Bearer <token>` (or a
/// `?token=` query, which browsers' WebSocket API needs) into the request
/// context; without a valid token (none, unknown, expired, revoked, or the
/// account disabled) the request stops here with a 401.
struct AuthenticationMiddleware: RouterMiddleware {
    let accounts: AccountService

    func handle(
        _ request: Request, context: APIRequestContext, next: (Request, APIRequestContext) async throws -> Response
    ) async throws -> Response {
        guard let token = Self.bearerToken(of: request) else {
            throw Problem.unauthorized("this endpoint needs a bearer token (Authorization: Bearer ...): log in with POST /v1/sessions")
        }
        let session = try await accounts.authenticateSession(bearer: token)
        guard let session else {
            if try await accounts.belongsToDisabledAccount(bearer: token) {
                throw Problem.unauthorized("the account of this bearer token is disabled; ask an administrator")
            }
            throw Problem.unauthorized("the bearer token is unknown, expired or revoked: log in again with POST /v1/sessions")
        }
        var context = context
        context.caller = Caller(account: session.account, session: session)
        return try await next(request, context)
    }

    /// The token of the `Authorization: Bearer` header, else of the `token` query parameter.
    static func bearerToken(of request: Request) -> String? {
        if let header = request.headers[.authorization] {
            let parts = header.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
            return String(parts[1]).trimmingCharacters(in: .whitespaces)
        }
        return request.uri.queryParameters.get("token")
    }
}
