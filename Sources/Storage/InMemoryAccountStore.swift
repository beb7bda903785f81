import FixRecords
import Foundation
import Synchronization

/// An account store in memory, for tests and for a service run where
/// nothing needs to survive the process. Same contract as the SQLite store,
/// down to its case folding: ASCII letters only, as SQLite's `NOCASE`.
public final class InMemoryAccountStore: AccountStore {
    private struct Contents {
        var accounts: [AccountRecord] = []
        var tokens: [Data: TokenRecord] = [:]
        var outbox: [OutboxEmail] = []
        var audit: [AuditEntry] = []
        var lastAccountID: Int64 = 0
        var lastEmailID: Int64 = 0

        /// Where the account with `id` is: accounts are kept in the order of
        /// their ids, which only grow, some deleted in between.
        func index(ofAccount id: Int64) -> Int? {
            var low = accounts.startIndex
            var high = accounts.endIndex
            while low < high {
                let middle = (low + high) / 2
                if accounts[middle].id < id { low = middle + 1 } else { high = middle }
            }
            return low < accounts.endIndex && accounts[low].id == id ? low : nil
        }

        mutating func append(_ email: EmailMessage, at date: Date) {
            lastEmailID += 1
            outbox.append(OutboxEmail(id: lastEmailID, createdAt: date.roundedToStoredMilliseconds, message: email))
        }

        mutating func update(
            accountAt index: Int, emailConfirmed: Bool? = nil, disabled: Bool? = nil, passwordHash: String? = nil,
            email: String?? = nil
        ) {
            let old = accounts[index]
            accounts[index] = AccountRecord(
                id: old.id, username: old.username, role: old.role, email: email ?? old.email,
                passwordHash: passwordHash ?? old.passwordHash, taxi: old.taxi,
                emailConfirmed: emailConfirmed ?? old.emailConfirmed, disabled: disabled ?? old.disabled,
                createdAt: old.createdAt, deleted: old.deleted)
        }

        /// Throws a conflict when an account other than `id` has `value` in `field`.
        func checkFree(_ field: String, _ value: String?, read: (AccountRecord) -> String?, but id: Int64? = nil) throws(StorageError) {
            guard let value else { return }
            let key = AccountQuery.folded(value)
            if accounts.contains(where: { $0.id != id && read($0).map(AccountQuery.folded) == key }) {
                throw .conflict(field: field, value: value)
            }
        }

        mutating func revoke(where matches: (TokenRecord) -> Bool) {
            for (hash, token) in tokens where matches(token) && !token.revoked {
                tokens[hash] = TokenRecord(
                    hash: hash, accountID: token.accountID, kind: token.kind, createdAt: token.createdAt,
                    expiresAt: token.expiresAt, revoked: true, email: token.email)
            }
        }

        mutating func insert(_ token: TokenRecord) throws(StorageError) {
            guard token.hash.count == 32 else { throw .writeFailed(reason: "a token hash must have 32 bytes") }
            guard tokens[token.hash] == nil else { throw .writeFailed(reason: "a token with this hash exists") }
            guard index(ofAccount: token.accountID) != nil else {
                throw .writeFailed(reason: "no account \(token.accountID) for the token")
            }
            tokens[token.hash] = TokenRecord(
                hash: token.hash, accountID: token.accountID, kind: token.kind,
                createdAt: token.createdAt.roundedToStoredMilliseconds,
                expiresAt: token.expiresAt.roundedToStoredMilliseconds, revoked: token.revoked, email: token.email)
        }

        mutating func insert(_ confirmation: AccountConfirmation, accountID: Int64) throws(StorageError) {
            try insert(TokenRecord(
                hash: confirmation.tokenHash, accountID: accountID, kind: confirmation.kind,
                createdAt: confirmation.createdAt, expiresAt: confirmation.expiresAt, email: confirmation.newAddress))
            append(confirmation.email, at: confirmation.createdAt)
        }
    }

    private let contents = Mutex(Contents())

    /// An empty store.
    public init() {}

    @discardableResult
    public func insert(_ account: NewAccount, confirmation: AccountConfirmation?) async throws(StorageError) -> AccountRecord {
        try contents.withLock { (contents: inout Contents) throws(StorageError) in
            try contents.checkFree("username", account.username, read: \.username)
            try contents.checkFree("email", account.email, read: \.email)
            try contents.checkFree("taxi", account.taxi?.text, read: { $0.taxi?.text })
            var next = contents
            next.lastAccountID += 1
            let record = AccountRecord(
                id: next.lastAccountID, username: account.username, role: account.role, email: account.email,
                passwordHash: account.passwordHash, taxi: account.taxi, emailConfirmed: account.emailConfirmed,
                disabled: false, createdAt: account.createdAt.roundedToStoredMilliseconds)
            next.accounts.append(record)
            if let confirmation { try next.insert(confirmation, accountID: record.id) }
            contents = next
            return record
        }
    }

    public func account(id: Int64) async throws(StorageError) -> AccountRecord? {
        contents.withLock { contents in contents.index(ofAccount: id).map { contents.accounts[$0] } }
    }

    public func account(username: String) async throws(StorageError) -> AccountRecord? {
        let key = AccountQuery.folded(username)
        return contents.withLock { contents in contents.accounts.first { AccountQuery.folded($0.username) == key } }
    }

    public func account(email: String) async throws(StorageError) -> AccountRecord? {
        let key = AccountQuery.folded(email)
        return contents.withLock { contents in contents.accounts.first { $0.email.map(AccountQuery.folded) == key } }
    }

    public func accounts(matching query: AccountQuery, after: Int64, limit: Int) async throws(StorageError) -> [AccountRecord] {
        contents.withLock { contents in
            Array(contents.accounts.lazy.filter { $0.id > after && query.matches($0) }.prefix(max(0, limit)))
        }
    }

    public func addConfirmation(_ confirmation: AccountConfirmation, accountID: Int64) async throws(StorageError) {
        try contents.withLock { (contents: inout Contents) throws(StorageError) in
            var next = contents
            try next.insert(confirmation, accountID: accountID)
            contents = next
        }
    }

    public func confirmEmail(accountID: Int64, tokenHash: Data) async throws(StorageError) -> AccountRecord? {
        try contents.withLock { (contents: inout Contents) throws(StorageError) -> AccountRecord? in
            guard let index = contents.index(ofAccount: accountID) else { return nil }
            if let newAddress = contents.tokens[tokenHash]?.email {
                try contents.checkFree("email", newAddress, read: \.email, but: accountID)
                contents.update(accountAt: index, emailConfirmed: true, email: .some(newAddress))
            } else {
                contents.update(accountAt: index, emailConfirmed: true)
            }
            contents.revoke { $0.hash == tokenHash && $0.accountID == accountID }
            return contents.accounts[index]
        }
    }

    public func setDisabled(_ disabled: Bool, accountID: Int64) async throws(StorageError) -> AccountRecord? {
        contents.withLock { contents in
            guard let index = contents.index(ofAccount: accountID) else { return nil }
            contents.update(accountAt: index, disabled: disabled || contents.accounts[index].deleted)
            if disabled { contents.revoke { $0.accountID == accountID } }
            return contents.accounts[index]
        }
    }

    public func update(
        accountID: Int64, role: Role, email: String?, emailConfirmed: Bool, taxi: TaxiID?
    ) async throws(StorageError) -> AccountRecord? {
        try contents.withLock { (contents: inout Contents) throws(StorageError) -> AccountRecord? in
            guard let index = contents.index(ofAccount: accountID) else { return nil }
            try contents.checkFree("email", email, read: \.email, but: accountID)
            try contents.checkFree("taxi", taxi?.text, read: { $0.taxi?.text }, but: accountID)
            let old = contents.accounts[index]
            if old.role != role || old.taxi != taxi { contents.revoke { $0.accountID == accountID } }
            contents.accounts[index] = AccountRecord(
                id: old.id, username: old.username, role: role, email: email, passwordHash: old.passwordHash, taxi: taxi,
                emailConfirmed: emailConfirmed, disabled: old.disabled, createdAt: old.createdAt, deleted: old.deleted)
            return contents.accounts[index]
        }
    }

    public func erase(accountID: Int64) async throws(StorageError) -> AccountRecord? {
        contents.withLock { contents in
            guard let index = contents.index(ofAccount: accountID) else { return nil }
            let old = contents.accounts[index]
            contents.accounts[index] = AccountRecord(
                id: old.id, username: AccountRecord.deletedUsername(id: old.id), role: old.role, email: nil,
                passwordHash: AccountRecord.erasedPasswordHash, taxi: nil, emailConfirmed: false, disabled: true,
                createdAt: old.createdAt, deleted: true)
            contents.tokens = contents.tokens.filter { $0.value.accountID != accountID }
            return contents.accounts[index]
        }
    }

    public func changePassword(accountID: Int64, passwordHash: String, keepingToken kept: Data?) async throws(StorageError) -> AccountRecord? {
        contents.withLock { contents in
            guard let index = contents.index(ofAccount: accountID) else { return nil }
            contents.update(accountAt: index, passwordHash: passwordHash)
            contents.revoke { $0.accountID == accountID && $0.hash != kept }
            return contents.accounts[index]
        }
    }

    public func insertToken(_ token: TokenRecord) async throws(StorageError) {
        try contents.withLock { (contents: inout Contents) throws(StorageError) in try contents.insert(token) }
    }

    public func token(hash: Data) async throws(StorageError) -> (token: TokenRecord, account: AccountRecord)? {
        contents.withLock { contents in
            guard let token = contents.tokens[hash], let index = contents.index(ofAccount: token.accountID) else { return nil }
            return (token, contents.accounts[index])
        }
    }

    @discardableResult
    public func revokeToken(hash: Data) async throws(StorageError) -> Bool {
        contents.withLock { contents in
            guard let token = contents.tokens[hash], !token.revoked else { return false }
            contents.revoke { $0.hash == hash }
            return true
        }
    }

    @discardableResult
    public func deleteTokens(expiredBefore date: Date) async throws(StorageError) -> Int {
        let limit = date.roundedToStoredMilliseconds
        return contents.withLock { contents in
            let before = contents.tokens.count
            contents.tokens = contents.tokens.filter { $0.value.expiresAt >= limit }
            return before - contents.tokens.count
        }
    }

    @discardableResult
    public func deleteUnconfirmedPassengers(asOf date: Date) async throws(StorageError) -> Int {
        let limit = date.roundedToStoredMilliseconds
        return contents.withLock { contents in
            let waiting = Set(contents.tokens.values.filter { $0.kind == .emailConfirmation && $0.expiresAt >= limit }.map(\.accountID))
            let abandoned = Set(contents.accounts.filter {
                $0.role == .passenger && !$0.emailConfirmed && !$0.deleted && !waiting.contains($0.id)
            }.map(\.id))
            contents.accounts.removeAll { abandoned.contains($0.id) }
            contents.tokens = contents.tokens.filter { !abandoned.contains($0.value.accountID) }
            return abandoned.count
        }
    }

    public func send(_ email: EmailMessage, at date: Date) async throws(StorageError) {
        contents.withLock { contents in contents.append(email, at: date) }
    }

    public func outbox(limit: Int) async throws(StorageError) -> [OutboxEmail] {
        contents.withLock { contents in Array(contents.outbox.reversed().prefix(max(0, limit))) }
    }

    public func claimEmailsDue(at date: Date, claimedUntil: Date, limit: Int) async throws(StorageError) -> [OutboxEmail] {
        let due = date.roundedToStoredMilliseconds
        return contents.withLock { contents in
            let taken = contents.outbox.indices.filter {
                contents.outbox[$0].delivery.state == .queued && (contents.outbox[$0].delivery.nextAttemptAt ?? .distantPast) <= due
            }.prefix(max(0, limit))
            let emails = taken.map { contents.outbox[$0] }
            for index in taken {
                let email = contents.outbox[index]
                var delivery = email.delivery
                delivery.nextAttemptAt = claimedUntil.roundedToStoredMilliseconds
                contents.outbox[index] = OutboxEmail(id: email.id, createdAt: email.createdAt, message: email.message, delivery: delivery)
            }
            return emails
        }
    }

    public func recordDelivery(ofEmail id: Int64, at date: Date, failure: String?, retryAt: Date?) async throws(StorageError) {
        contents.withLock { contents in
            guard let index = contents.outbox.firstIndex(where: { $0.id == id }) else { return }
            let email = contents.outbox[index]
            var delivery = email.delivery
            delivery.attempts += 1
            if let failure {
                delivery.lastError = failure
                delivery.state = retryAt == nil ? .failed : .queued
                delivery.nextAttemptAt = retryAt?.roundedToStoredMilliseconds
            } else {
                delivery.state = .sent
                delivery.nextAttemptAt = nil
                delivery.sentAt = date.roundedToStoredMilliseconds
            }
            contents.outbox[index] = OutboxEmail(id: email.id, createdAt: email.createdAt, message: email.message, delivery: delivery)
        }
    }

    @discardableResult
    public func appendAudit(_ action: AuditAction, at date: Date) async throws(StorageError) -> AuditEntry {
        contents.withLock { contents in
            let entry = AuditEntry(
                id: (contents.audit.last?.id ?? 0) + 1, at: date.roundedToStoredMilliseconds, actor: action.actor,
                action: action.action, target: action.target, detail: action.detail)
            contents.audit.append(entry)
            return entry
        }
    }

    public func auditEntries(target: String?, before: Int64, limit: Int) async throws(StorageError) -> [AuditEntry] {
        let key = target.map(AccountQuery.folded)
        return contents.withLock { contents in
            Array(contents.audit.reversed().lazy.filter { $0.id < before && (key == nil || AccountQuery.folded($0.target) == key) }
                .prefix(max(0, limit)))
        }
    }
}
