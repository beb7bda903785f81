import Accounts
import DispatchCore
import FixRecords
import Hummingbird
import Ingest
import Storage

/// `/v1/accounts`, `/v1/audit` and `/v1/outbox`, for administrators (SPEC
/// A2): create, search, read, edit, disable, enable and delete accounts,
/// send an account a password reset, read the audit log of what
/// administrators did, and the e-mail outbox.
struct AccountsController: Sendable {
    let accounts: AccountService
    /// True when the devices file has a device for the taxi: a driver's account is bound to one.
    let hasDevice: @Sendable (TaxiID) -> Bool
    /// Files a deleted passenger's rides under the deleted account's placeholder name.
    let anonymiseRides: @Sendable (_ passenger: PassengerID, _ replacement: PassengerID) async throws -> Int
    /// The open ride or reservation of a passenger, which a deletion waits for.
    let openRide: @Sendable (PassengerID) async -> String?

    func addRoutes(to group: RouterGroup<APIRequestContext>) {
        group.post(use: create)
        group.get(use: list)
        group.get(":username", use: read)
        group.patch(":username", use: edit)
        group.delete(":username", use: delete)
        group.post(":username/disable", use: disable)
        group.post(":username/enable", use: enable)
        group.post(":username/password-reset", use: sendPasswordReset)
    }

    func addOutboxRoutes(to group: RouterGroup<APIRequestContext>) {
        group.get(use: outbox)
    }

    func addAuditRoutes(to group: RouterGroup<APIRequestContext>) {
        group.get(use: audit)
    }

    /// `POST /v1/accounts` `{"role", "username", "password", "email"?, "taxiId"?}` → 201.
    /// A driver's username is its taxi id (or `taxiId` names it), which the devices file must know.
    @Sendable func create(_ request: Request, context: APIRequestContext) async throws -> Response {
        let caller = try context.requireCaller(in: [.administrator])
        let body = try await request.decode(as: NewAccountBody.self, context: context)
        let role = try Self.role(named: body.role, field: "role")
        let taxi = role == .driver ? TaxiID(body.taxiId ?? body.username) : body.taxiId.map { TaxiID($0) }
        if role == .driver, let taxi { try checkDevice(of: taxi) }
        let account = try await accounts.createAccount(
            role: role, username: body.username, password: body.password, email: body.email, taxi: taxi, by: caller.username)
        return try JSONResponse.created(AccountJSON(account), location: "/v1/accounts/\(account.username)")
    }

    /// `GET /v1/accounts?role=driver&state=disabled&q=ada&limit=500&after=ID`:
    /// the accounts that match every condition given (`q`: part of the
    /// username or e-mail address, any case), oldest first, a page at a
    /// time; when more follow, `Link` names the next page (`after` the last id of this one).
    @Sendable func list(_ request: Request, context: APIRequestContext) async throws -> Response {
        _ = try context.requireCaller(in: [.administrator])
        let parameters = request.uri.queryParameters
        let role = try parameters.get("role").map { try Self.role(named: $0, field: "query parameter 'role'") }
        var state: AccountState?
        if let text = parameters.get("state") {
            guard let named = AccountState(rawValue: text) else {
                let states = AccountState.allCases.map(\.rawValue).joined(separator: ", ")
                throw Problem.badRequest("query parameter 'state' must be one of \(states) (got \(text))")
            }
            state = named
        }
        let text = parameters.get("q")
        if let text, text.count > AccountValidation.maximumEmailLength {
            throw Problem.badRequest("query parameter 'q' may have at most \(AccountValidation.maximumEmailLength) characters")
        }
        let limit = try request.queryCount("limit", in: 1...Self.maxPageSize, default: Self.defaultPageSize)
        let after = Int64(try request.queryCount("after", in: 0...Int.max, default: 0))
        let query = AccountQuery(role: role, state: state, text: text)
        let found = try await accounts.search(query, after: after, limit: limit + 1)
        let page = Array(found.prefix(limit))
        let next = found.count > limit ? page.last.map { last in
            var next: [(name: String, value: String)] = []
            if let role { next.append(("role", role.rawValue)) }
            if let state { next.append(("state", state.rawValue)) }
            if let text = query.text { next.append(("q", text)) }
            return next + [("limit", "\(limit)"), ("after", "\(last.id)")]
        } : nil
        return try PagedResponse.ok(page.map(AccountJSON.init), path: request.uri.path, next: next)
    }

    /// Accounts one `GET /v1/accounts` returns unless `limit` says otherwise.
    static let defaultPageSize = 500
    /// The most accounts one `GET /v1/accounts` returns.
    static let maxPageSize = 1000

    /// `GET /v1/accounts/{username}`: one account, with its state.
    @Sendable func read(_ request: Request, context: APIRequestContext) async throws -> Response {
        _ = try context.requireCaller(in: [.administrator])
        return try JSONResponse.ok(AccountJSON(try await accounts.account(named: try context.pathParameter("username"))))
    }

    /// `PATCH /v1/accounts/{username}` `{"email"?, "role"?, "taxiId"?}`: changes
    /// what is given (`"email": null` removes a staff account's address); a
    /// changed role or taxi ends the account's sessions (push sockets close with 4005).
    @Sendable func edit(_ request: Request, context: APIRequestContext) async throws -> Response {
        let caller = try context.requireCaller(in: [.administrator])
        let username = try context.pathParameter("username")
        let body = try await request.decode(as: AccountEditBody.self, context: context)
        var edit = AccountEdit(email: body.email, taxi: body.taxiId.map { TaxiID($0) })
        if let role = body.role { edit.role = try Self.role(named: role, field: "role") }
        guard !edit.isEmpty else { throw Problem.badRequest("the body changes nothing: give 'email', 'role' or 'taxiId'") }
        if let taxi = edit.taxi { try checkDevice(of: taxi) }
        if edit.role != nil, username.lowercased() == caller.username.lowercased() {
            throw Problem.conflict("an administrator cannot change its own role; ask another administrator")
        }
        return try JSONResponse.ok(AccountJSON(try await accounts.edit(username: username, edit, by: caller.username)))
    }

    /// `DELETE /v1/accounts/{username}`: erases the account's personal data
    /// (username, e-mail address, password, taxi) and ends its sessions; a
    /// passenger's rides stay, anonymised, under the deleted account's
    /// placeholder name. 409 while a passenger has an open ride or reservation.
    @Sendable func delete(_ request: Request, context: APIRequestContext) async throws -> Response {
        let caller = try context.requireCaller(in: [.administrator])
        let username = try context.pathParameter("username")
        guard username.lowercased() != caller.username.lowercased() else {
            throw Problem.conflict("an administrator cannot delete its own account; ask another administrator")
        }
        let account = try await accounts.account(named: username)
        if account.role == .passenger, let ride = await openRide(PassengerID(account.username)) {
            throw Problem.conflict("\(account.username) has the open ride or reservation \(ride); it must end or be cancelled before the account is deleted")
        }
        let (before, after) = try await accounts.delete(username: account.username, by: caller.username)
        var answer = DeletedAccountJSON(account: AccountJSON(after), ridesAnonymised: 0)
        if before.role == .passenger {
            answer.ridesAnonymised = try await anonymiseRides(PassengerID(before.username), PassengerID(after.username))
        }
        return try JSONResponse.ok(answer)
    }

    /// `POST /v1/accounts/{username}/disable`: the account can no longer log in, and its tokens stop working now.
    @Sendable func disable(_ request: Request, context: APIRequestContext) async throws -> Response {
        let caller = try context.requireCaller(in: [.administrator])
        let username = try context.pathParameter("username")
        guard username.lowercased() != caller.username.lowercased() else {
            throw Problem.conflict("an administrator cannot disable its own account; ask another administrator")
        }
        return try JSONResponse.ok(AccountJSON(try await accounts.disable(username: username, by: caller.username)))
    }

    /// `POST /v1/accounts/{username}/enable`: a disabled account may log in again.
    @Sendable func enable(_ request: Request, context: APIRequestContext) async throws -> Response {
        let caller = try context.requireCaller(in: [.administrator])
        return try JSONResponse.ok(AccountJSON(
            try await accounts.enable(username: try context.pathParameter("username"), by: caller.username)))
    }

    /// `POST /v1/accounts/{username}/password-reset` → 202: the account's
    /// address gets a "forgot password" e-mail (its token works 1 h, once).
    @Sendable func sendPasswordReset(_ request: Request, context: APIRequestContext) async throws -> Response {
        let caller = try context.requireCaller(in: [.administrator])
        let account = try await accounts.sendPasswordReset(username: try context.pathParameter("username"), by: caller.username)
        return try JSONResponse.accepted(AccountJSON(account))
    }

    /// `GET /v1/audit?target=ada&before=ID&limit=100`: what administrators
    /// did, newest first, a page at a time (`Link` names the next page).
    @Sendable func audit(_ request: Request, context: APIRequestContext) async throws -> Response {
        _ = try context.requireCaller(in: [.administrator])
        let target = request.uri.queryParameters.get("target").flatMap { $0.isEmpty ? nil : $0 }
        let limit = try request.queryCount("limit", in: 1...Self.maxPageSize, default: 100)
        let before = Int64(try request.queryCount("before", in: 1...Int.max, default: Int.max))
        let found = try await accounts.auditLog(target: target, before: before, limit: limit + 1)
        let page = Array(found.prefix(limit))
        let next = found.count > limit ? page.last.map { last in
            (target.map { [(name: "target", value: $0)] } ?? []) + [("limit", "\(limit)"), ("before", "\(last.id)")]
        } : nil
        return try PagedResponse.ok(page.map(AuditEntryJSON.init), path: request.uri.path, next: next)
    }

    /// `GET /v1/outbox?limit=50`: the newest e-mails, newest first, each with
    /// its delivery (queued, sent or failed and why): without a mail relay,
    /// what the service would have sent.
    @Sendable func outbox(_ request: Request, context: APIRequestContext) async throws -> Response {
        _ = try context.requireCaller(in: [.administrator])
        let limit = try request.queryCount("limit", in: 1...1000, default: 50)
        return try JSONResponse.ok(try await accounts.outbox(limit: limit).map(OutboxEmailJSON.init))
    }

    /// 422 unless the devices file has a device reporting for `taxi`.
    private func checkDevice(of taxi: TaxiID) throws {
        guard hasDevice(taxi) else {
            throw Problem.unprocessable("no device of the devices file reports for taxi \(taxi); add it there (then SIGHUP) before its driver's account")
        }
    }

    /// The role named `text`, or 400 naming `field` and the roles there are.
    private static func role(named text: String, field: String) throws -> Role {
        guard let role = Role(rawValue: text) else {
            let roles = Role.allCases.map(\.rawValue).joined(separator: ", ")
            throw Problem.badRequest("'\(field)' must be one of \(roles) (got \(text))")
        }
        return role
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

/// The body of `PATCH /v1/accounts/{username}`: each field given is changed;
/// `"email": null` removes the address.
struct AccountEditBody: Decodable, Sendable {
    /// Absent: unchanged; `.some(nil)`: removed.
    var email: String??
    var role: String?
    var taxiId: String?

    private enum CodingKeys: String, CodingKey { case email, role, taxiId }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        email = container.contains(.email) ? .some(try container.decodeNil(forKey: .email) ? nil : try container.decode(String.self, forKey: .email)) : nil
        role = try container.decodeIfPresent(String.self, forKey: .role)
        taxiId = try container.decodeIfPresent(String.self, forKey: .taxiId)
    }
}

/// The answer to `DELETE /v1/accounts/{username}`.
struct DeletedAccountJSON: Encodable, Sendable {
    /// The account as it is now: its placeholder name, state `deleted`.
    var account: AccountJSON
    /// How many of a passenger's rides were filed under the placeholder name.
    var ridesAnonymised: Int
}

/// An entry of the audit log.
struct AuditEntryJSON: Encodable, Sendable {
    var id: Int64
    /// ISO 8601.
    var at: String
    var actor: String
    var action: String
    var target: String
    var detail: String

    init(_ entry: AuditEntry) {
        id = entry.id
        at = FixTime.iso8601(entry.at)
        actor = entry.actor
        action = entry.action
        target = entry.target
        detail = entry.detail
    }
}

/// An e-mail of the outbox, with where its delivery stands.
struct OutboxEmailJSON: Codable, Sendable {
    var id: Int64
    /// ISO 8601.
    var createdAt: String
    var to: String
    var subject: String
    var body: String
    /// `queued`, `sent` or `failed`.
    var state: String
    var attempts: Int
    /// Why the last attempt failed, as the relay or the network said.
    var lastError: String?
    /// ISO 8601: when the next attempt is due.
    var nextAttemptAt: String?
    /// ISO 8601: when the relay took it.
    var sentAt: String?

    init(_ email: OutboxEmail) {
        id = email.id
        createdAt = FixTime.iso8601(email.createdAt)
        to = email.message.to
        subject = email.message.subject
        body = email.message.body
        state = email.delivery.state.rawValue
        attempts = email.delivery.attempts
        lastError = email.delivery.lastError
        nextAttemptAt = email.delivery.nextAttemptAt.map(FixTime.iso8601)
        sentAt = email.delivery.sentAt.map(FixTime.iso8601)
    }
}
