import Accounts
import FixRecords
import Hummingbird
import Ingest
import Storage

/// `/v1/accounts` and `/v1/outbox`, for administrators (SPEC A2): create
/// driver and staff accounts, list them, disable one (its tokens stop
/// working at once), and read the e-mail outbox that stands in for a mail server.
struct AccountsController: Sendable {
    let accounts: AccountService
    /// True when the devices file has a device for the taxi: a driver's account is bound to one.
    let hasDevice: @Sendable (TaxiID) -> Bool

    func addRoutes(to group: RouterGroup<APIRequestContext>) {
        group.post(use: create)
        group.get(use: list)
        group.post(":username/disable", use: disable)
    }

    func addOutboxRoutes(to group: RouterGroup<APIRequestContext>) {
        group.get(use: outbox)
    }

    /// `POST /v1/accounts` `{"role", "username", "password", "email"?, "taxiId"?}` → 201.
    /// A driver's username is its taxi id (or `taxiId` names it), which the devices file must know.
    @Sendable func create(_ request: Request, context: APIRequestContext) async throws -> Response {
        _ = try context.requireCaller(in: [.administrator])
        let body = try await request.decode(as: NewAccountBody.self, context: context)
        guard let role = Role(rawValue: body.role) else {
            let roles = Role.allCases.map(\.rawValue).joined(separator: ", ")
            throw Problem.badRequest("'role' must be one of \(roles) (got \(body.role))")
        }
        let taxi = role == .driver ? TaxiID(body.taxiId ?? body.username) : body.taxiId.map { TaxiID($0) }
        if role == .driver, let taxi, !hasDevice(taxi) {
            throw Problem.unprocessable("no device of the devices file reports for taxi \(taxi); add it there (then SIGHUP) before its driver's account")
        }
        let account = try await accounts.createAccount(
            role: role, username: body.username, password: body.password, email: body.email, taxi: taxi)
        return try JSONResponse.created(AccountJSON(account), location: "/v1/accounts/\(account.username)")
    }

    /// `GET /v1/accounts?role=driver&limit=500&after=ID`: the accounts, or those of a
    /// role, oldest first, a page at a time; when more follow, `Link` names
    /// the next page (`after` the last id of this one).
    @Sendable func list(_ request: Request, context: APIRequestContext) async throws -> Response {
        _ = try context.requireCaller(in: [.administrator])
        var role: Role?
        if let text = request.uri.queryParameters.get("role") {
            guard let named = Role(rawValue: text) else { throw Problem.badRequest("query parameter 'role' names no role: \(text)") }
            role = named
        }
        let limit = try request.queryCount("limit", in: 1...Self.maxPageSize, default: Self.defaultPageSize)
        let after = Int64(try request.queryCount("after", in: 0...Int.max, default: 0))
        let found = try await accounts.list(role: role, after: after, limit: limit + 1)
        let page = Array(found.prefix(limit))
        let next = found.count > limit ? page.last.map { last in
            (role.map { [(name: "role", value: $0.rawValue)] } ?? []) + [("limit", "\(limit)"), ("after", "\(last.id)")]
        } : nil
        return try PagedResponse.ok(page.map(AccountJSON.init), path: request.uri.path, next: next)
    }

    /// Accounts one `GET /v1/accounts` returns unless `limit` says otherwise.
    static let defaultPageSize = 500
    /// The most accounts one `GET /v1/accounts` returns.
    static let maxPageSize = 1000

    /// `POST /v1/accounts/{username}/disable`: the account can no longer log in, and its tokens stop working now.
    @Sendable func disable(_ request: Request, context: APIRequestContext) async throws -> Response {
        let caller = try context.requireCaller(in: [.administrator])
        let username = try context.pathParameter("username")
        guard username.lowercased() != caller.username.lowercased() else {
            throw Problem.conflict("an administrator cannot disable its own account; ask another administrator")
        }
        return try JSONResponse.ok(AccountJSON(try await accounts.disable(username: username)))
    }

    /// `GET /v1/outbox?limit=50`: the newest e-mails the service would have sent, newest first.
    @Sendable func outbox(_ request: Request, context: APIRequestContext) async throws -> Response {
        _ = try context.requireCaller(in: [.administrator])
        let limit = try request.queryCount("limit", in: 1...1000, default: 50)
        return try JSONResponse.ok(try await accounts.outbox(limit: limit).map {
            OutboxEmailJSON(id: $0.id, createdAt: FixTime.iso8601($0.createdAt), to: $0.message.to,
                            subject: $0.message.subject, body: $0.message.body)
        })
    }
}

/// The body of `POST /v1/accounts`.
struct NewAccountBody: Codable, Sendable {
    var role: String
    var username: String
    var password: String
    var email: String?
    var taxiId: String?
}

/// An e-mail of the outbox.
struct OutboxEmailJSON: Codable, Sendable {
    var id: Int64
    /// ISO 8601.
    var createdAt: String
    var to: String
    var subject: String
    var body: String
}
