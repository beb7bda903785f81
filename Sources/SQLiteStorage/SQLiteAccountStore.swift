import FixRecords
import Foundation
import Storage
import GRDB

/// The default account store: `accounts.sqlite` in the data directory, WAL
/// with `synchronous=FULL`, so that an account, a token or a revocation is
/// durable when the call returns. The schema is built by named migrations,
/// only ever appended, and guards the invariants itself: unique usernames,
/// e-mail addresses and taxis regardless of ASCII case (`COLLATE NOCASE`),
/// known roles and token kinds, tokens of existing accounts only.
///
/// Several processes may open it at once (the service, and `mytaxi
/// accounts create` beside it): writes are immediate transactions, and a
/// writer waits up to 10 s for another.
public final class SQLiteAccountStore: AccountStore {
    let database: DatabasePool

    /// Opens (creating and migrating when needed) the store in `directory`, which must exist.
    /// - Throws: ``StorageError/unavailable(location:reason:)``.
    public init(directory: String) throws(StorageError) {
        do {
            database = try DurableDatabasePool.open(directory: directory, name: "accounts.sqlite")
            try Self.migrator.migrate(database)
        } catch {
            throw .unavailable(location: "the data directory \(directory)", reason: "\(error)")
        }
    }

    /// The schema, one migration per change.
    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("accounts, tokens and the outbox") { db in
            let roles = Role.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
            try db.execute(sql: """
                CREATE TABLE account (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    username TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (username <> ''),
                    role TEXT NOT NULL CHECK (role IN (\(roles))),
                    email TEXT UNIQUE COLLATE NOCASE,
                    password_hash TEXT NOT NULL,
                    taxi TEXT UNIQUE COLLATE NOCASE,
                    email_confirmed INTEGER NOT NULL CHECK (email_confirmed IN (0, 1)),
                    disabled INTEGER NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1)),
                    created_ms INTEGER NOT NULL);
                CREATE TABLE token (
                    hash BLOB PRIMARY KEY CHECK (length(hash) = 32),
                    account_id INTEGER NOT NULL REFERENCES account (id),
                    kind TEXT NOT NULL CHECK (kind IN ('session', 'emailConfirmation')),
                    created_ms INTEGER NOT NULL,
                    expires_ms INTEGER NOT NULL,
                    revoked INTEGER NOT NULL DEFAULT 0 CHECK (revoked IN (0, 1))) WITHOUT ROWID;
                CREATE INDEX token_account ON token (account_id);
                CREATE INDEX token_expiry ON token (expires_ms);
                CREATE TABLE outbox (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    recipient TEXT NOT NULL,
                    subject TEXT NOT NULL,
                    body TEXT NOT NULL,
                    created_ms INTEGER NOT NULL);
                """)
        }
        migrator.registerMigration("deleted accounts, password-reset and e-mail-change tokens, the audit log") { db in
            // SQLite cannot change a CHECK: the token table is made anew with every kind and the new address.
            let kinds = TokenKind.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
            try db.execute(sql: """
                ALTER TABLE account ADD COLUMN deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1));
                CREATE TABLE token_with_address (
                    hash BLOB PRIMARY KEY CHECK (length(hash) = 32),
                    account_id INTEGER NOT NULL REFERENCES account (id),
                    kind TEXT NOT NULL CHECK (kind IN (\(kinds))),
                    created_ms INTEGER NOT NULL,
                    expires_ms INTEGER NOT NULL,
                    revoked INTEGER NOT NULL DEFAULT 0 CHECK (revoked IN (0, 1)),
                    email TEXT) WITHOUT ROWID;
                INSERT INTO token_with_address (hash, account_id, kind, created_ms, expires_ms, revoked)
                    SELECT hash, account_id, kind, created_ms, expires_ms, revoked FROM token;
                DROP TABLE token;
                ALTER TABLE token_with_address RENAME TO token;
                CREATE INDEX token_account ON token (account_id);
                CREATE INDEX token_expiry ON token (expires_ms);
                CREATE TABLE audit (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    at_ms INTEGER NOT NULL,
                    actor TEXT NOT NULL,
                    action TEXT NOT NULL,
                    target TEXT NOT NULL COLLATE NOCASE,
                    detail TEXT NOT NULL);
                CREATE INDEX audit_target ON audit (target, id);
                """)
        }
        migrator.registerMigration("taxis and devices managed through the API") { db in
            try db.execute(sql: """
                CREATE TABLE taxi (
                    id TEXT PRIMARY KEY CHECK (id <> ''),
                    plate TEXT,
                    seats INTEGER NOT NULL CHECK (seats > 0),
                    active INTEGER NOT NULL CHECK (active IN (0, 1)),
                    updated_ms INTEGER NOT NULL);
                CREATE TABLE device (
                    id TEXT PRIMARY KEY CHECK (id <> ''),
                    taxi TEXT NOT NULL CHECK (taxi <> ''),
                    protocol TEXT,
                    secret TEXT,
                    retired INTEGER NOT NULL CHECK (retired IN (0, 1)),
                    updated_ms INTEGER NOT NULL);
                CREATE TABLE register_version (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL);
                INSERT INTO register_version (id, version) VALUES (1, 0);
                """)
        }
        migrator.registerMigration("the outbox's deliveries") { db in
            let states = EmailDelivery.State.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
            try db.execute(sql: """
                ALTER TABLE outbox ADD COLUMN state TEXT NOT NULL DEFAULT 'queued' CHECK (state IN (\(states)));
                ALTER TABLE outbox ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE outbox ADD COLUMN last_error TEXT;
                ALTER TABLE outbox ADD COLUMN next_attempt_ms INTEGER;
                ALTER TABLE outbox ADD COLUMN sent_ms INTEGER;
                CREATE INDEX outbox_queued ON outbox (next_attempt_ms, id) WHERE state = 'queued';
                """)
        }
        return migrator
    }

    static let accountColumns =
        "account.id, username, role, account.email, password_hash, taxi, email_confirmed, disabled, account.created_ms, deleted"

    /// The SQL condition of each account state, as ``AccountRecord/state`` decides it.
    static func condition(of state: AccountState) -> String {
        switch state {
        case .deleted: "deleted = 1"
        case .disabled: "deleted = 0 AND disabled = 1"
        case .unconfirmed: "deleted = 0 AND disabled = 0 AND role = 'passenger' AND email_confirmed = 0"
        case .active: "deleted = 0 AND disabled = 0 AND (role <> 'passenger' OR email_confirmed = 1)"
        }
    }

    @discardableResult
    public func insert(_ account: NewAccount, confirmation: AccountConfirmation?) async throws(StorageError) -> AccountRecord {
        try await write { db in
            for (column, value) in [("username", account.username), ("email", account.email), ("taxi", account.taxi?.text)] {
                try Self.checkFree(column, value, in: db)
            }
            try db.execute(
                sql: """
                    INSERT INTO account (username, role, email, password_hash, taxi, email_confirmed, created_ms)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [account.username, account.role.rawValue, account.email, account.passwordHash, account.taxi?.text,
                            account.emailConfirmed, account.createdAt.storedMilliseconds])
            let id = db.lastInsertedRowID
            if let confirmation { try Self.insert(confirmation, accountID: id, in: db) }
            return AccountRecord(
                id: id, username: account.username, role: account.role, email: account.email,
                passwordHash: account.passwordHash, taxi: account.taxi, emailConfirmed: account.emailConfirmed,
                disabled: false, createdAt: account.createdAt.roundedToStoredMilliseconds)
        }
    }

    public func account(id: Int64) async throws(StorageError) -> AccountRecord? {
        try await read { db in try Self.account(db, id: id) }
    }

    public func account(username: String) async throws(StorageError) -> AccountRecord? {
        try await read { db in
            try Row.fetchOne(db, sql: "SELECT \(Self.accountColumns) FROM account WHERE username = ?", arguments: [username])
                .map(Self.account)
        }
    }

    public func account(email: String) async throws(StorageError) -> AccountRecord? {
        try await read { db in
            try Row.fetchOne(db, sql: "SELECT \(Self.accountColumns) FROM account WHERE email = ?", arguments: [email])
                .map(Self.account)
        }
    }

    public func accounts(matching query: AccountQuery, after: Int64, limit: Int) async throws(StorageError) -> [AccountRecord] {
        let state = query.state.map { " AND (\(Self.condition(of: $0)))" } ?? ""
        let text = query.text.map(AccountQuery.folded)
        return try await read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.accountColumns) FROM account
                    WHERE (? IS NULL OR role = ?)\(state)
                        AND (? IS NULL OR instr(lower(username), ?) > 0 OR instr(lower(coalesce(email, '')), ?) > 0)
                        AND id > ? ORDER BY id LIMIT ?
                    """,
                arguments: [query.role?.rawValue, query.role?.rawValue, text, text, text, after, Int64(clamping: max(0, limit))]
            ).map(Self.account)
        }
    }

    public func addConfirmation(_ confirmation: AccountConfirmation, accountID: Int64) async throws(StorageError) {
        try await write { db in try Self.insert(confirmation, accountID: accountID, in: db) }
    }

    public func confirmEmail(accountID: Int64, tokenHash: Data) async throws(StorageError) -> AccountRecord? {
        try await write { db in
            let newAddress = try String?.fetchOne(
                db, sql: "SELECT email FROM token WHERE hash = ? AND account_id = ?", arguments: [tokenHash, accountID]) ?? nil
            if let newAddress {
                try Self.checkFree("email", newAddress, but: accountID, in: db)
                try db.execute(sql: "UPDATE account SET email = ? WHERE id = ?", arguments: [newAddress, accountID])
            }
            try db.execute(sql: "UPDATE account SET email_confirmed = 1 WHERE id = ?", arguments: [accountID])
            try db.execute(sql: "UPDATE token SET revoked = 1 WHERE hash = ? AND account_id = ?", arguments: [tokenHash, accountID])
            return try Self.account(db, id: accountID)
        }
    }

    public func setDisabled(_ disabled: Bool, accountID: Int64) async throws(StorageError) -> AccountRecord? {
        try await write { db in
            try db.execute(sql: "UPDATE account SET disabled = (? OR deleted) WHERE id = ?", arguments: [disabled, accountID])
            if disabled { try db.execute(sql: "UPDATE token SET revoked = 1 WHERE account_id = ?", arguments: [accountID]) }
            return try Self.account(db, id: accountID)
        }
    }

    public func update(
        accountID: Int64, role: Role, email: String?, emailConfirmed: Bool, taxi: TaxiID?
    ) async throws(StorageError) -> AccountRecord? {
        try await write { db in
            try Self.checkFree("email", email, but: accountID, in: db)
            try Self.checkFree("taxi", taxi?.text, but: accountID, in: db)
            let changesWhoItIs = try Bool.fetchOne(
                db, sql: "SELECT role IS NOT ? OR taxi IS NOT ? FROM account WHERE id = ?",
                arguments: [role.rawValue, taxi?.text, accountID]) ?? false
            if changesWhoItIs { try db.execute(sql: "UPDATE token SET revoked = 1 WHERE account_id = ?", arguments: [accountID]) }
            try db.execute(
                sql: "UPDATE account SET role = ?, email = ?, email_confirmed = ?, taxi = ? WHERE id = ?",
                arguments: [role.rawValue, email, emailConfirmed, taxi?.text, accountID])
            return try Self.account(db, id: accountID)
        }
    }

    public func erase(accountID: Int64) async throws(StorageError) -> AccountRecord? {
        try await write { db in
            try db.execute(
                sql: """
                    UPDATE account SET username = ?, email = NULL, password_hash = ?, taxi = NULL, email_confirmed = 0,
                        disabled = 1, deleted = 1 WHERE id = ?
                    """,
                arguments: [AccountRecord.deletedUsername(id: accountID), AccountRecord.erasedPasswordHash, accountID])
            try db.execute(sql: "DELETE FROM token WHERE account_id = ?", arguments: [accountID])
            return try Self.account(db, id: accountID)
        }
    }

    public func changePassword(accountID: Int64, passwordHash: String, keepingToken kept: Data?) async throws(StorageError) -> AccountRecord? {
        try await write { db in
            try db.execute(sql: "UPDATE account SET password_hash = ? WHERE id = ?", arguments: [passwordHash, accountID])
            try db.execute(sql: "UPDATE token SET revoked = 1 WHERE account_id = ? AND hash IS NOT ?", arguments: [accountID, kept])
            return try Self.account(db, id: accountID)
        }
    }

    public func insertToken(_ token: TokenRecord) async throws(StorageError) {
        try await write { db in try Self.insert(token, in: db) }
    }

    public func token(hash: Data) async throws(StorageError) -> (token: TokenRecord, account: AccountRecord)? {
        try await read { db in
            guard let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT \(Self.accountColumns), hash, kind, token.created_ms AS token_created_ms, expires_ms, revoked,
                        token.email AS token_email
                    FROM token JOIN account ON account.id = token.account_id WHERE hash = ?
                    """,
                arguments: [hash])
            else { return nil }
            let account = try Self.account(row)
            let kindName: String = row["kind"]
            guard let kind = TokenKind(rawValue: kindName) else {
                throw StorageError.readFailed(reason: "unknown token kind \(kindName)")
            }
            let token = TokenRecord(
                hash: row["hash"], accountID: account.id, kind: kind,
                createdAt: Date(storedMilliseconds: row["token_created_ms"]),
                expiresAt: Date(storedMilliseconds: row["expires_ms"]), revoked: row["revoked"], email: row["token_email"])
            return (token, account)
        }
    }

    @discardableResult
    public func revokeToken(hash: Data) async throws(StorageError) -> Bool {
        try await write { db in
            try db.execute(sql: "UPDATE token SET revoked = 1 WHERE hash = ? AND revoked = 0", arguments: [hash])
            return db.changesCount > 0
        }
    }

    @discardableResult
    public func deleteTokens(expiredBefore date: Date) async throws(StorageError) -> Int {
        try await write { db in
            try db.execute(sql: "DELETE FROM token WHERE expires_ms < ?", arguments: [date.storedMilliseconds])
            return db.changesCount
        }
    }

    @discardableResult
    public func deleteUnconfirmedPassengers(asOf date: Date) async throws(StorageError) -> Int {
        try await write { db in
            let abandoned = """
                SELECT id FROM account WHERE role = 'passenger' AND email_confirmed = 0 AND deleted = 0 AND NOT EXISTS (
                    SELECT 1 FROM token WHERE token.account_id = account.id AND kind = ? AND expires_ms >= ?)
                """
            let arguments: StatementArguments = [TokenKind.emailConfirmation.rawValue, date.storedMilliseconds]
            try db.execute(sql: "DELETE FROM token WHERE account_id IN (\(abandoned))", arguments: arguments)
            try db.execute(sql: "DELETE FROM account WHERE id IN (\(abandoned))", arguments: arguments)
            return db.changesCount
        }
    }

    public func send(_ email: EmailMessage, at date: Date) async throws(StorageError) {
        try await write { db in try Self.insert(email, at: date, in: db) }
    }

    public func outbox(limit: Int) async throws(StorageError) -> [OutboxEmail] {
        try await read { db in
            try Row.fetchAll(
                db, sql: "SELECT \(Self.outboxColumns) FROM outbox ORDER BY id DESC LIMIT ?", arguments: [max(0, limit)]
            ).map(Self.outboxEmail)
        }
    }

    public func claimEmailsDue(at date: Date, claimedUntil: Date, limit: Int) async throws(StorageError) -> [OutboxEmail] {
        try await write { db in
            let emails = try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.outboxColumns) FROM outbox
                    WHERE state = 'queued' AND coalesce(next_attempt_ms, 0) <= ? ORDER BY id LIMIT ?
                    """,
                arguments: [date.storedMilliseconds, max(0, limit)]
            ).map(Self.outboxEmail)
            for email in emails {
                try db.execute(
                    sql: "UPDATE outbox SET next_attempt_ms = ? WHERE id = ?", arguments: [claimedUntil.storedMilliseconds, email.id])
            }
            return emails
        }
    }

    public func recordDelivery(ofEmail id: Int64, at date: Date, failure: String?, retryAt: Date?) async throws(StorageError) {
        try await write { db in
            if let failure {
                try db.execute(
                    sql: """
                        UPDATE outbox SET attempts = attempts + 1, last_error = ?, state = ?, next_attempt_ms = ? WHERE id = ?
                        """,
                    arguments: [failure, retryAt == nil ? "failed" : "queued", retryAt?.storedMilliseconds, id])
            } else {
                try db.execute(
                    sql: "UPDATE outbox SET attempts = attempts + 1, state = 'sent', next_attempt_ms = NULL, sent_ms = ? WHERE id = ?",
                    arguments: [date.storedMilliseconds, id])
            }
        }
    }

    static let outboxColumns = "id, recipient, subject, body, created_ms, state, attempts, last_error, next_attempt_ms, sent_ms"

    static func outboxEmail(_ row: Row) throws -> OutboxEmail {
        let stateName: String = row["state"]
        guard let state = EmailDelivery.State(rawValue: stateName) else {
            throw StorageError.readFailed(reason: "unknown e-mail state \(stateName)")
        }
        return OutboxEmail(
            id: row["id"], createdAt: Date(storedMilliseconds: row["created_ms"]),
            message: EmailMessage(to: row["recipient"], subject: row["subject"], body: row["body"]),
            delivery: EmailDelivery(
                state: state, attempts: row["attempts"], lastError: row["last_error"],
                nextAttemptAt: (row["next_attempt_ms"] as Int64?).map { Date(storedMilliseconds: $0) },
                sentAt: (row["sent_ms"] as Int64?).map { Date(storedMilliseconds: $0) }))
    }

    @discardableResult
    public func appendAudit(_ action: AuditAction, at date: Date) async throws(StorageError) -> AuditEntry {
        try await write { db in
            try db.execute(
                sql: "INSERT INTO audit (at_ms, actor, action, target, detail) VALUES (?, ?, ?, ?, ?)",
                arguments: [date.storedMilliseconds, action.actor, action.action, action.target, action.detail])
            return AuditEntry(
                id: db.lastInsertedRowID, at: date.roundedToStoredMilliseconds, actor: action.actor, action: action.action,
                target: action.target, detail: action.detail)
        }
    }

    public func auditEntries(target: String?, before: Int64, limit: Int) async throws(StorageError) -> [AuditEntry] {
        try await read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, at_ms, actor, action, target, detail FROM audit
                    WHERE (? IS NULL OR target = ?) AND id < ? ORDER BY id DESC LIMIT ?
                    """,
                arguments: [target, target, before, Int64(clamping: max(0, limit))]
            ).map { row in
                AuditEntry(
                    id: row["id"], at: Date(storedMilliseconds: row["at_ms"]), actor: row["actor"], action: row["action"],
                    target: row["target"], detail: row["detail"])
            }
        }
    }

    /// Throws a conflict when an account other than `id` has `value` in `column` (a name from this file only).
    private static func checkFree(_ column: String, _ value: String?, but id: Int64? = nil, in db: Database) throws {
        guard let value else { return }
        if try Bool.fetchOne(db, sql: "SELECT 1 FROM account WHERE \(column) = ? AND id IS NOT ?", arguments: [value, id]) == true {
            throw StorageError.conflict(field: column, value: value)
        }
    }

    private static func insert(_ confirmation: AccountConfirmation, accountID: Int64, in db: Database) throws {
        try insert(
            TokenRecord(hash: confirmation.tokenHash, accountID: accountID, kind: confirmation.kind,
                        createdAt: confirmation.createdAt, expiresAt: confirmation.expiresAt, email: confirmation.newAddress),
            in: db)
        try insert(confirmation.email, at: confirmation.createdAt, in: db)
    }

    private static func insert(_ email: EmailMessage, at date: Date, in db: Database) throws {
        try db.execute(
            sql: "INSERT INTO outbox (recipient, subject, body, created_ms) VALUES (?, ?, ?, ?)",
            arguments: [email.to, email.subject, email.body, date.storedMilliseconds])
    }

    private static func insert(_ token: TokenRecord, in db: Database) throws {
        try db.execute(
            sql: "INSERT INTO token (hash, account_id, kind, created_ms, expires_ms, revoked, email) VALUES (?, ?, ?, ?, ?, ?, ?)",
            arguments: [token.hash, token.accountID, token.kind.rawValue, token.createdAt.storedMilliseconds,
                        token.expiresAt.storedMilliseconds, token.revoked, token.email])
    }

    private static func account(_ db: Database, id: Int64) throws -> AccountRecord? {
        try Row.fetchOne(db, sql: "SELECT \(accountColumns) FROM account WHERE id = ?", arguments: [id]).map(account)
    }

    static func account(_ row: Row) throws -> AccountRecord {
        let roleName: String = row["role"]
        guard let role = Role(rawValue: roleName) else { throw StorageError.readFailed(reason: "unknown role \(roleName)") }
        return AccountRecord(
            id: row["id"], username: row["username"], role: role, email: row["email"],
            passwordHash: row["password_hash"], taxi: (row["taxi"] as String?).map { TaxiID($0) },
            emailConfirmed: row["email_confirmed"], disabled: row["disabled"],
            createdAt: Date(storedMilliseconds: row["created_ms"]), deleted: row["deleted"])
    }

    /// Runs `body` in a write transaction; a ``StorageError`` it throws
    /// passes through, any other failure is a write that did not happen.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(StorageError) -> T {
        do {
            return try await database.write(body)
        } catch let error as StorageError {
            throw error
        } catch {
            throw .writeFailed(reason: "\(error)")
        }
    }

    /// Runs `body` on a snapshot of the database.
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(StorageError) -> T {
        do {
            return try await database.read(body)
        } catch let error as StorageError {
            throw error
        } catch {
            throw .readFailed(reason: "\(error)")
        }
    }
}
