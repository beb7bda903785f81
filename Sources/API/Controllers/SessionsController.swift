import Accounts
import DispatchCore
import DispatchRuntime
import FixRecords
import Hummingbird
import Ingest
import Storage

/// `/v1/sessions`: log in (a bearer token that expires) and out (the token
/// revoked). A driver's login also puts the taxi on duty, unavailable
/// until the driver switches to available, and the logout takes it off
/// duty (SPEC D1).
struct SessionsController: Sendable {
    let accounts: AccountService
    let dispatcher: Dispatcher
    /// Wrong passwords per (username, client address).
    let throttle: LoginThrottle
    /// Login attempts per client address.
    let addressLimiter: AttemptLimiter
    /// Who the client is behind a reverse proxy.
    let proxies: TrustedProxies
    /// The passengers a taxi carries, as the taxi registry says: the
    /// dispatcher learns it at the driver's login.
    let seats: @Sendable (TaxiID) -> Int
    /// Whether a device in service reports for a taxi: a driver whose taxi
    /// has none (retired, or its devices retired) may not go on duty.
    let hasDevice: @Sendable (TaxiID) -> Bool

    /// `POST /v1/sessions`, which anyone may call.
    func addPublicRoutes(to group: RouterGroup<APIRequestContext>) {
        group.post(use: login)
    }

    /// `DELETE /v1/sessions/current`, behind authentication.
    func addRoutes(to group: RouterGroup<APIRequestContext>) {
        group.delete("current", use: logout)
    }

    /// `POST /v1/sessions` `{"username", "password"}` → 201 `{"token", "expiresAt", "role"}`.
    @Sendable func login(_ request: Request, context: APIRequestContext) async throws -> Response {
        let body = try await request.decode(as: LoginBody.self, context: context)
        if let problem = AccountService.loginProblem(username: body.username, password: body.password) {
            throw Problem(AccountError.invalid([problem]))
        }
        let address = proxies.clientAddress(of: request, peer: context.remoteAddress)
        try addressLimiter.attempt(address, what: "login")
        try throttle.check(username: body.username, address: address)
        let session: SessionToken
        do {
            session = try await accounts.login(username: body.username, password: body.password)
        } catch {
            if case .badCredentials = error { throttle.failed(username: body.username, address: address) }
            throw error
        }
        throttle.succeeded(username: body.username, address: address)
        if session.account.role == .driver, let taxi = Caller(account: session.account).taxi {
            guard hasDevice(taxi) else {
                _ = try await accounts.logout(token: session.token)
                throw Problem(
                    status: .forbidden,
                    detail: "taxi \(taxi) has no device in service (retired, or its devices retired): it cannot go on duty; ask an administrator")
            }
            try await putOnDuty(taxi, driver: session.account.username)
        }
        return try JSONResponse.created(
            SessionJSON(token: session.token, expiresAt: FixTime.iso8601(session.expiresAt), role: session.account.role.rawValue),
            location: "/v1/sessions/current")
    }

    /// `DELETE /v1/sessions/current`: revokes the token; 204. A driver
    /// holding an offer or on a ride must finish it first (409).
    @Sendable func logout(_ request: Request, context: APIRequestContext) async throws -> Response {
        let caller = try context.requireCaller(in: Set(Role.allCases))
        if let taxi = caller.taxi, await dispatcher.driver(taxi).record.map({ $0.state != .offDuty }) == true {
            try await dispatcher.execute(.logout(taxi))
        }
        guard let token = AuthenticationMiddleware.bearerToken(of: request) else {
            throw Problem.unauthorized("no bearer token to revoke")
        }
        _ = try await accounts.logout(token: token)
        return Response(status: .noContent)
    }

    /// Logs the taxi in with the dispatcher, with its seats and its driver,
    /// unless it is on duty already with those seats for that driver (a second device).
    private func putOnDuty(_ taxi: TaxiID, driver: String) async throws {
        let seats = seats(taxi)
        let record = await dispatcher.driver(taxi).record
        guard record.map({ $0.state == .offDuty || $0.seats != seats || $0.driver != driver }) ?? true else { return }
        try await dispatcher.execute(.login(taxi, seats: seats, driver: driver))
    }
}

/// The body of `POST /v1/sessions`.
struct LoginBody: Codable, Sendable {
    var username: String
    var password: String
}

/// The answer of `POST /v1/sessions`.
struct SessionJSON: Codable, Sendable {
    /// Send as `Authorization: Bearer <token>`.
    var token: String
    /// ISO 8601: from then on the token no longer works.
    var expiresAt: String
    /// `passenger`, `driver`, `dispatcher`, `planner`, `administrator`, `partner`.
    var role: String
}
