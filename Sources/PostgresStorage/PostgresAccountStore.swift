import FixRecords
import Foundation
import Storage

/// Accounts, tokens and the e-mail outbox on PostgreSQL (SPEC A2): each
/// call one transaction, durable when it returns. The schema guards the
/// invariants itself, as the SQLite store's does: usernames, e-mail
/// addresses and taxis unique regardless of ASCII case (unique indexes on
/// `lower(... COLLATE "C")`, which folds ASCII only), known roles and
/// token kinds, 32-byte token hashes, tokens of existing accounts only.
public final class PostgresAccountStore: AccountStore {
    let pool: PostgresPool

    /// The store in `pool`'s database, whose schema must be migrated (``PostgresSchema/migrate(_:)``).
    public init(pool: PostgresPool) {
        self.pool = pool
    }

    /// The `CHECK` lists of the schema, from the enums, so that they cannot drift apart.
    static var roleNames: String { Role.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ") }
    static var tokenKindNames: String { TokenKind.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ") }

    private static let accountColumns =
        "account.id, username, role, account.email, password_hash, taxi, email_confirmed, disabled, account.created_ms, deleted"

    /// The SQL condition of each account state, as ``AccountRecord/state`` decides it.
    private static func condition(of state: AccountState) -> String {
        switch state {
        case .deleted: "deleted"
        case .disabled: "NOT deleted AND disabled"
        case .unconfirmed: "NOT deleted AND NOT disabled AND role = 'passenger' AND NOT email_confirmed"
        case .active: "NOT deleted AND NOT disabled AND (role <> 'passenger' OR email_confirmed)"
        }
    }

    @discardableResult
    public func insert(_ account: NewAccount, confirmation: AccountConfirmation?) async throws(StorageError) -> AccountRecord {
        try await write { connection in
            for (column, value) in [("username", account.username), ("email", account.email), ("taxi", account.taxi?.text)] {
                try Self.checkFree(column, value, on: connection)
            }
            let id = try connection.query(
                """
                INSERT INTO account (username, role, email, password_hash, taxi, email_confirmed, created_ms)
                VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id
                """,
                [.text(account.username), .text(account.role.rawValue), .optional(account.email), .text(account.passwordHash),
                 .optional(account.taxi?.text), .boolean(account.emailConfirmed), .integer(account.createdAt.storedMilliseconds)]
            ).integer(0, "id")
            if let confirmation { try Self.insert(confirmation, accountID: id, on: connection) }
            return AccountRecord(
                id: id, username: account.username, role: account.role, email: account.email,
                passwordHash: account.passwordHash, taxi: account.taxi, emailConfirmed: account.emailConfirmed,
                disabled: false, createdAt: account.createdAt.roundedToStoredMilliseconds)
        }
    }

    public func account(id: Int64) async throws(StorageError) -> AccountRecord? {
        try await read { connection in try Self.account(id: id, on: connection) }
    }

    public func account(username: String) async throws(StorageError) -> AccountRecord? {
        try await read { connection in
            try Self.accounts(connection.query(
                "SELECT \(Self.accountColumns) FROM account WHERE lower(username COLLATE \"C\") = lower($1 COLLATE \"C\")",
                [.text(username)])).first
        }
    }

    public func account(email: String) async throws(StorageError) -> AccountRecord? {
        try await read { connection in
            try Self.accounts(connection.query(
                "SELECT \(Self.accountColumns) FROM account WHERE lower(email COLLATE \"C\") = lower($1 COLLATE \"C\")",
                [.text(email)])).first
        }
    }

    public func accounts(matching query: AccountQuery, after: Int64, limit: Int) async throws(StorageError) -> [AccountRecord] {
        let state = query.state.map { " AND (\(Self.condition(of: $0)))" } ?? ""
        return try await read { connection in
            try Self.accounts(connection.query(
                """
                SELECT \(Self.accountColumns) FROM account
                WHERE ($1::text IS NULL OR role = $1::text)\(state)
                    AND ($2::text IS NULL OR strpos(lower(username COLLATE "C"), lower($2::text COLLATE "C")) > 0
                        OR strpos(lower(coalesce(email, '') COLLATE "C"), lower($2::text COLLATE "C")) > 0)
                    AND id > $3 ORDER BY id LIMIT $4
                """,
                [.optional(query.role?.rawValue), .optional(query.text), .integer(after),
                 .integer(Int64(clamping: max(0, limit)))]))
        }
    }

    public func addConfirmation(_ confirmation: AccountConfirmation, accountID: Int64) async throws(StorageError) {
        try await write { connection in try Self.insert(confirmation, accountID: accountID, on: connection) }
    }

    public func confirmEmail(accountID: Int64, tokenHash: Data) async throws(StorageError) -> AccountRecord? {
        try await write { connection in
            let token = try connection.query(
                "SELECT email FROM token WHERE hash = $1 AND account_id = $2", [.bytes(tokenHash), .integer(accountID)])
            if token.count == 1, let newAddress = try token.text(0, "email") {
                try Self.checkFree("email", newAddress, but: accountID, on: connection)
                try connection.query("UPDATE account SET email = $1 WHERE id = $2", [.text(newAddress), .integer(accountID)])
            }
            try connection.query("UPDATE account SET email_confirmed = true WHERE id = $1", [.integer(accountID)])
            try connection.query(
                "UPDATE token SET revoked = true WHERE hash = $1 AND account_id = $2", [.bytes(tokenHash), .integer(accountID)])
            return try Self.account(id: accountID, on: connection)
        }
    }

    public func setDisabled(_ disabled: Bool, accountID: Int64) async throws(StorageError) -> AccountRecord? {
        try await write { connection in
            try connection.query(
                "UPDATE account SET disabled = ($1 OR deleted) WHERE id = $2", [.boolean(disabled), .integer(accountID)])
            if disabled { try connection.query("UPDATE token SET revoked = true WHERE account_id = $1", [.integer(accountID)]) }
            return try Self.account(id: accountID, on: connection)
        }
    }

    public func update(
        accountID: Int64, role: Role, email: String?, emailConfirmed: Bool, taxi: TaxiID?
    ) async throws(StorageError) -> AccountRecord? {
        try await write { connection in
            try Self.checkFree("email", email, but: accountID, on: connection)
            try Self.checkFree("taxi", taxi?.text, but: accountID, on: connection)
            try connection.query(
                """
                UPDATE token SET revoked = true WHERE account_id = $1 AND EXISTS (
                    SELECT 1 FROM account WHERE id = $1 AND (role <> $2 OR taxi IS DISTINCT FROM $3))
                """,
                [.integer(accountID), .text(role.rawValue), .optional(taxi?.text)])
            try connection.query(
                "UPDATE account SET role = $1, email = $2, email_confirmed = $3, taxi = $4 WHERE id = $5",
                [.text(role.rawValue), .optional(email), .boolean(emailConfirmed), .optional(taxi?.text), .integer(accountID)])
            return try Self.account(id: accountID, on: connection)
        }
    }

    public func erase(accountID: Int64) async throws(StorageError) -> AccountRecord? {
        try await write { connection in
            try connection.query(
                """
                UPDATE account SET username = $1, email = NULL, password_hash = $2, taxi = NULL, email_confirmed = false,
                    disabled = true, deleted = true WHERE id = $3
                """,
                [.text(AccountRecord.deletedUsername(id: accountID)), .text(AccountRecord.erasedPasswordHash), .integer(accountID)])
            try connection.query("DELETE FROM token WHERE account_id = $1", [.integer(accountID)])
            return try Self.account(id: accountID, on: connection)
        }
    }

    public func changePassword(accountID: Int64, passwordHash: String, keepingToken kept: Data?) async throws(StorageError) -> AccountRecord? {
        try await write { connection in
            try connection.query("UPDATE account SET password_hash = $1 WHERE id = $2", [.text(passwordHash), .integer(accountID)])
            try connection.query(
                "UPDATE token SET revoked = true WHERE account_id = $1 AND hash IS DISTINCT FROM $2",
                [.integer(accountID), kept.map { .bytes($0) } ?? .null])
            return try Self.account(id: accountID, on: connection)
        }
    }

    public func insertToken(_ token: TokenRecord) async throws(StorageError) {
        try await write { connection in try Self.insert(token, on: connection) }
    }

    public func token(hash: Data) async throws(StorageError) -> (token: TokenRecord, account: AccountRecord)? {
        try await read { connection in
            let rows = try connection.query(
                """
                SELECT \(Self.accountColumns), hash, kind, token.created_ms AS token_created_ms, expires_ms, revoked,
                    token.email AS token_email
                FROM token JOIN account ON account.id = token.account_id WHERE hash = $1
                """, [.bytes(hash)])
            guard rows.count == 1, let account = try Self.accounts(rows).first else { return nil }
            let kindName = try rows.string(0, "kind")
            guard let kind = TokenKind(rawValue: kindName) else {
                throw StorageError.readFailed(reason: "unknown token kind \(kindName)")
            }
            let token = TokenRecord(
                hash: try rows.bytes(0, "hash"), accountID: account.id, kind: kind,
                createdAt: Date(storedMilliseconds: try rows.integer(0, "token_created_ms")),
                expiresAt: Date(storedMilliseconds: try rows.integer(0, "expires_ms")), revoked: try rows.boolean(0, "revoked"),
                email: try rows.text(0, "token_email"))
            return (token, account)
        }
    }

    @discardableResult
    public func revokeToken(hash: Data) async throws(StorageError) -> Bool {
        try await write { connection in
            try connection.query("UPDATE token SET revoked = true WHERE hash = $1 AND NOT revoked", [.bytes(hash)]).affected > 0
        }
    }

    @discardableResult
    public func deleteTokens(expiredBefore date: Date) async throws(StorageError) -> Int {
        try await write { connection in
            try connection.query("DELETE FROM token WHERE expires_ms < $1", [.integer(date.storedMilliseconds)]).affected
        }
    }

    @discardableResult
    public func deleteUnconfirmedPassengers(asOf date: Date) async throws(StorageError) -> Int {
        try await write { connection in
            let abandoned = """
                SELECT id FROM account WHERE role = 'passenger' AND NOT email_confirmed AND NOT deleted AND NOT EXISTS (
                    SELECT 1 FROM token WHERE token.account_id = account.id AND kind = $1 AND expires_ms >= $2)
                """
            let arguments: [PostgresValue] = [.text(TokenKind.emailConfirmation.rawValue), .integer(date.storedMilliseconds)]
            try connection.query("DELETE FROM token WHERE account_id IN (\(abandoned))", arguments)
            return try connection.query("DELETE FROM account WHERE id IN (\(abandoned))", arguments).affected
        }
    }

    public func send(_ email: EmailMessage, at date: Date) async throws(StorageError) {
        try await write { connection in try Self.insert(email, at: date, on: connection) }
    }

    public func outbox(limit: Int) async throws(StorageError) -> [OutboxEmail] {
        try await read { connection in
            try Self.outboxEmails(connection.query(
                "SELECT \(Self.outboxColumns) FROM outbox ORDER BY id DESC LIMIT $1", [.integer(Int64(max(0, limit)))]))
        }
    }

    public func claimEmailsDue(at date: Date, claimedUntil: Date, limit: Int) async throws(StorageError) -> [OutboxEmail] {
        try await write { connection in
            // Rows another node is claiming are skipped, not waited for.
            let emails = try Self.outboxEmails(connection.query(
                """
                SELECT \(Self.outboxColumns) FROM outbox
                WHERE state = 'queued' AND coalesce(next_attempt_ms, 0) <= $1 ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED
                """,
                [.integer(date.storedMilliseconds), .integer(Int64(max(0, limit)))]))
            for email in emails {
                try connection.query(
                    "UPDATE outbox SET next_attempt_ms = $1 WHERE id = $2", [.integer(claimedUntil.storedMilliseconds), .integer(email.id)])
            }
            return emails
        }
    }

    public func recordDelivery(ofEmail id: Int64, at date: Date, failure: String?, retryAt: Date?) async throws(StorageError) {
        try await write { connection in
            if let failure {
                try connection.query(
                    "UPDATE outbox SET attempts = attempts + 1, last_error = $1, state = $2, next_attempt_ms = $3 WHERE id = $4",
                    [.text(failure), .text(retryAt == nil ? "failed" : "queued"), retryAt.map { .integer($0.storedMilliseconds) } ?? .null,
                     .integer(id)])
            } else {
                try connection.query(
                    "UPDATE outbox SET attempts = attempts + 1, state = 'sent', next_attempt_ms = NULL, sent_ms = $1 WHERE id = $2",
                    [.integer(date.storedMilliseconds), .integer(id)])
            }
        }
    }

    private static let outboxColumns = "id, recipient, subject, body, created_ms, state, attempts, last_error, next_attempt_ms, sent_ms"

    private static func outboxEmails(_ rows: PostgresRows) throws -> [OutboxEmail] {
        try (0..<rows.count).map { row in
            let stateName = try rows.string(row, "state")
            guard let state = EmailDelivery.State(rawValue: stateName) else {
                throw StorageError.readFailed(reason: "unknown e-mail state \(stateName)")
            }
            return OutboxEmail(
                id: try rows.integer(row, "id"), createdAt: Date(storedMilliseconds: try rows.integer(row, "created_ms")),
                message: EmailMessage(
                    to: try rows.string(row, "recipient"), subject: try rows.string(row, "subject"), body: try rows.string(row, "body")),
                delivery: EmailDelivery(
                    state: state, attempts: Int(try rows.integer(row, "attempts")), lastError: try rows.text(row, "last_error"),
                    nextAttemptAt: try rows.optionalInteger(row, "next_attempt_ms").map { Date(storedMilliseconds: $0) },
                    sentAt: try rows.optionalInteger(row, "sent_ms").map { Date(storedMilliseconds: $0) }))
        }
    }

    @discardableResult
    public func appendAudit(_ action: AuditAction, at date: Date) async throws(StorageError) -> AuditEntry {
        try await write { connection in
            let id = try connection.query(
                "INSERT INTO audit (at_ms, actor, action, target, detail) VALUES ($1, $2, $3, $4, $5) RETURNING id",
                [.integer(date.storedMilliseconds), .text(action.actor), .text(action.action), .text(action.target),
                 .text(action.detail)]
            ).integer(0, "id")
            return AuditEntry(
                id: id, at: date.roundedToStoredMilliseconds, actor: action.actor, action: action.action,
                target: action.target, detail: action.detail)
        }
    }

    public func auditEntries(target: String?, before: Int64, limit: Int) async throws(StorageError) -> [AuditEntry] {
        try await read { connection in
            let rows = try connection.query(
                """
                SELECT id, at_ms, actor, action, target, detail FROM audit
                WHERE ($1::text IS NULL OR lower(target COLLATE "C") = lower($1::text COLLATE "C")) AND id < $2
                ORDER BY id DESC LIMIT $3
                """,
                [.optional(target), .integer(before), .integer(Int64(clamping: max(0, limit)))])
            return try (0..<rows.count).map { row in
                AuditEntry(
                    id: try rows.integer(row, "id"), at: Date(storedMilliseconds: try rows.integer(row, "at_ms")),
                    actor: try rows.string(row, "actor"), action: try rows.string(row, "action"),
                    target: try rows.string(row, "target"), detail: try rows.string(row, "detail"))
            }
        }
    }

    /// Throws a conflict when an account other than `id` has `value` in
    /// `column`, regardless of ASCII case (a column name from this file only).
    private static func checkFree(_ column: String, _ value: String?, but id: Int64? = nil, on connection: PostgresConnection) throws {
        guard let value else { return }
        if try connection.query(
            "SELECT 1 FROM account WHERE lower(\(column) COLLATE \"C\") = lower($1 COLLATE \"C\") AND id IS DISTINCT FROM $2",
            [.text(value), id.map { .integer($0) } ?? .null]
        ).count > 0 {
            throw StorageError.conflict(field: column, value: value)
        }
    }

    private static func insert(_ confirmation: AccountConfirmation, accountID: Int64, on connection: PostgresConnection) throws {
        try insert(
            TokenRecord(hash: confirmation.tokenHash, accountID: accountID, kind: confirmation.kind,
                        createdAt: confirmation.createdAt, expiresAt: confirmation.expiresAt, email: confirmation.newAddress),
            on: connection)
        try insert(confirmation.email, at: confirmation.createdAt, on: connection)
    }

    private static func insert(_ email: EmailMessage, at date: Date, on connection: PostgresConnection) throws {
        try connection.query(
            "INSERT INTO outbox (recipient, subject, body, created_ms) VALUES ($1, $2, $3, $4)",
            [.text(email.to), .text(email.subject), .text(email.body), .integer(date.storedMilliseconds)])
    }

    private static func insert(_ token: TokenRecord, on connection: PostgresConnection) throws {
        try connection.query(
            "INSERT INTO token (hash, account_id, kind, created_ms, expires_ms, revoked, email) VALUES ($1, $2, $3, $4, $5, $6, $7)",
            [.bytes(token.hash), .integer(token.accountID), .text(token.kind.rawValue), .integer(token.createdAt.storedMilliseconds),
             .integer(token.expiresAt.storedMilliseconds), .boolean(token.revoked), .optional(token.email)])
    }

    private static func account(id: Int64, on connection: PostgresConnection) throws -> AccountRecord? {
        try accounts(connection.query("SELECT \(accountColumns) FROM account WHERE id = $1", [.integer(id)])).first
    }

    private static func accounts(_ rows: PostgresRows) throws -> [AccountRecord] {
        try (0..<rows.count).map { row in
            let roleName = try rows.string(row, "role")
            guard let role = Role(rawValue: roleName) else { throw StorageError.readFailed(reason: "unknown role \(roleName)") }
            return AccountRecord(
                id: try rows.integer(row, "id"), username: try rows.string(row, "username"), role: role,
                email: try rows.text(row, "email"), passwordHash: try rows.string(row, "password_hash"),
                taxi: try rows.text(row, "taxi").map { TaxiID($0) }, emailConfirmed: try rows.boolean(row, "email_confirmed"),
                disabled: try rows.boolean(row, "disabled"), createdAt: Date(storedMilliseconds: try rows.integer(row, "created_ms")),
                deleted: try rows.boolean(row, "deleted"))
        }
    }

    /// Runs `body` in a transaction; a ``StorageError`` it throws passes
    /// through, any other failure is a write that did not happen.
    func write<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws(StorageError) -> T {
        try await pool.run(transaction: true, { .writeFailed(reason: $0) }, body)
    }

    /// Runs `body` on one snapshot of the database.
    func read<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws(StorageError) -> T {
        try await pool.run(transaction: true, { .readFailed(reason: $0) }, body)
    }
}
