import FixRecords
import Foundation
import ServiceClock
import Storage

extension AccountService {
    /// Who the audit log names for what is done from `mytaxi accounts` at the console.
    public static let consoleActor = "console"

    /// The accounts `query` finds, oldest first: at most `limit`, whose ids
    /// come after `after` (0: from the first), for administrators to page through.
    public func search(_ query: AccountQuery = AccountQuery(), after: Int64 = 0, limit: Int = .max) async throws(AccountError) -> [AccountRecord] {
        try await storing { () async throws(StorageError) in try await store.accounts(matching: query, after: after, limit: limit) }
    }

    /// The account named `username` (any case).
    /// - Throws: ``AccountError/unknownAccount(username:)``, ``AccountError/storage(_:)``.
    public func account(named username: String) async throws(AccountError) -> AccountRecord {
        let found = try await storing { () async throws(StorageError) in try await store.account(username: username) }
        guard let found else { throw .unknownAccount(username: username) }
        return found
    }

    /// Disables the account named `username` (any case) and revokes all its
    /// tokens together: its bearer tokens stop working when this returns,
    /// and it can no longer log in. The audit log says `actor` did it.
    /// - Throws: ``AccountError/unknownAccount(username:)``, ``AccountError/storage(_:)``.
    @discardableResult
    public func disable(username: String, by actor: String = AccountService.consoleActor) async throws(AccountError) -> AccountRecord {
        let account = try await account(named: username)
        let disabled = try await changed(account) { () async throws(StorageError) in
            try await store.setDisabled(true, accountID: account.id)
        }
        sessions.forget(accountID: disabled.id)
        sessionEnds.tell(.accountDisabled(accountID: disabled.id))
        try await audit(actor, "account.disable", disabled.username)
        return disabled
    }

    /// Enables the disabled account named `username` (any case) again: it
    /// may log in from now on (its old sessions stay ended). A deleted
    /// account cannot be enabled. The audit log says `actor` did it.
    /// - Throws: ``AccountError/unknownAccount(username:)``, ``AccountError/deleted(username:)``,
    ///   ``AccountError/storage(_:)``.
    @discardableResult
    public func enable(username: String, by actor: String = AccountService.consoleActor) async throws(AccountError) -> AccountRecord {
        let account = try await account(named: username)
        if account.deleted { throw .deleted(username: account.username) }
        let enabled = try await changed(account) { () async throws(StorageError) in
            try await store.setDisabled(false, accountID: account.id)
        }
        try await audit(actor, "account.enable", enabled.username)
        return enabled
    }

    /// Changes the e-mail address, the role (between staff roles) or the
    /// taxi (of a driver) of the account named `username`; a changed role
    /// or taxi ends every session of the account, which acts for the
    /// account as it was. Whether a driver's new taxi has a device is for
    /// the caller to check. The audit log says `actor` did it, and what changed.
    /// - Throws: ``AccountError/invalid(_:)`` for an e-mail address or taxi
    ///   id that cannot be one, ``AccountError/notForRole(_:)`` for a change
    ///   the role rules out, ``AccountError/taken(field:value:)``,
    ///   ``AccountError/unknownAccount(username:)``, ``AccountError/deleted(username:)``,
    ///   ``AccountError/storage(_:)``.
    @discardableResult
    public func edit(username: String, _ edit: AccountEdit, by actor: String = AccountService.consoleActor) async throws(AccountError) -> AccountRecord {
        let account = try await account(named: username)
        if account.deleted { throw .deleted(username: account.username) }
        let email = edit.email ?? account.email
        let role = edit.role ?? account.role
        let taxi = edit.taxi ?? account.taxi
        var malformed: [FieldProblem] = []
        if let email, edit.email != nil {
            malformed += AccountValidation.emailProblems(email).map { FieldProblem(field: .email, problem: $0) }
        }
        if let taxi = edit.taxi, taxi.text.trimmingCharacters(in: .whitespaces).isEmpty {
            malformed.append(FieldProblem(field: .taxi, problem: "the taxi id is empty"))
        }
        guard malformed.isEmpty else { throw .invalid(malformed) }
        var forRole: [FieldProblem] = []
        if role != account.role, !(AccountEdit.staffRoles.contains(role) && AccountEdit.staffRoles.contains(account.role)) {
            let staff = AccountEdit.staffRoles.map(\.rawValue).sorted().joined(separator: ", ")
            forRole.append(FieldProblem(
                field: .role, problem: "a \(account.role) cannot become a \(role): only staff roles (\(staff)) change; create a new account"))
        }
        if account.role == .passenger && email == nil {
            forRole.append(FieldProblem(field: .email, problem: "a passenger needs an e-mail address"))
        }
        if edit.taxi != nil && role != .driver {
            forRole.append(FieldProblem(field: .taxi, problem: "only a driver has a taxi, not a \(role)"))
        }
        guard forRole.isEmpty else { throw .notForRole(forRole) }
        let emailConfirmed = edit.email != nil ? email != nil : account.emailConfirmed
        let edited = try await changed(account) { () async throws(StorageError) in
            try await store.update(accountID: account.id, role: role, email: email, emailConfirmed: emailConfirmed, taxi: taxi)
        }
        sessions.forget(accountID: edited.id)
        if edited.role != account.role || edited.taxi != account.taxi { sessionEnds.tell(.accountChanged(accountID: edited.id)) }
        try await audit(actor, "account.edit", edited.username, Self.differences(from: account, to: edited))
        return edited
    }

    /// Deletes the account named `username`: its personal data (username,
    /// e-mail address, password, taxi) is erased and every session ends;
    /// what remains is its id under ``AccountRecord/deletedUsername(id:)``,
    /// which its rides are to be filed under (the caller moves them). The
    /// audit log says `actor` did it.
    /// - Returns: the account as it was and as it is now.
    /// - Throws: ``AccountError/unknownAccount(username:)``, ``AccountError/deleted(username:)``,
    ///   ``AccountError/storage(_:)``.
    public func delete(username: String, by actor: String = AccountService.consoleActor) async throws(AccountError) -> (before: AccountRecord, after: AccountRecord) {
        let account = try await account(named: username)
        if account.deleted { throw .deleted(username: account.username) }
        let erased = try await changed(account) { () async throws(StorageError) in try await store.erase(accountID: account.id) }
        sessions.forget(accountID: erased.id)
        sessionEnds.tell(.accountChanged(accountID: erased.id))
        try await audit(actor, "account.delete", account.username, "\(account.role) account \(account.id), now \(erased.username)")
        return (account, erased)
    }

    /// Sets the password of the account named `username` on an
    /// administrator's word (at the console, for an account without an
    /// e-mail address), ending every session of it; the account is told by
    /// e-mail when it has an address. The audit log says `actor` did it.
    /// - Throws: ``AccountError/invalid(_:)`` naming the rules the password
    ///   breaks, ``AccountError/unknownAccount(username:)``, ``AccountError/deleted(username:)``,
    ///   ``AccountError/storage(_:)``.
    @discardableResult
    public func setPassword(username: String, to password: String, by actor: String = AccountService.consoleActor) async throws(AccountError) -> AccountRecord {
        let problems = policy.problems(in: password).map { FieldProblem(field: .password, problem: $0) }
        guard problems.isEmpty else { throw .invalid(problems) }
        let account = try await account(named: username)
        if account.deleted { throw .deleted(username: account.username) }
        let hash = await hasher.hash(password)
        let changed = try await replacePassword(of: account, hash: hash, keeping: nil)
        try await audit(actor, "account.set-password", changed.username)
        return changed
    }

    /// Sends the account named `username` a "forgot password" e-mail on an
    /// administrator's word (the owner asked by phone, say): its token sets
    /// a new password, once, within ``AccountSettings/passwordResetLifetime``.
    /// The audit log says `actor` did it.
    /// - Throws: ``AccountError/notForRole(_:)`` when the account has no
    ///   e-mail address or is disabled, ``AccountError/unknownAccount(username:)``,
    ///   ``AccountError/deleted(username:)``, ``AccountError/storage(_:)``.
    @discardableResult
    public func sendPasswordReset(username: String, by actor: String = AccountService.consoleActor) async throws(AccountError) -> AccountRecord {
        let account = try await account(named: username)
        if account.deleted { throw .deleted(username: account.username) }
        guard let address = account.email else {
            throw .notForRole([FieldProblem(
                field: .email,
                problem: "\(account.username) has no e-mail address to send a reset to: set one, or set a password at the console with `mytaxi accounts reset-password`")])
        }
        if account.disabled {
            throw .notForRole([FieldProblem(field: .email, problem: "\(account.username) is disabled: enable it first")])
        }
        try await issuePasswordReset(for: account, to: address)
        try await audit(actor, "account.password-reset", account.username, "a reset e-mail to \(address)")
        return account
    }

    /// The audit log, newest first: at most `limit` entries whose ids come
    /// before `before`, those about `target` only when it is given.
    public func auditLog(target: String? = nil, before: Int64 = .max, limit: Int = 100) async throws(AccountError) -> [AuditEntry] {
        try await storing { () async throws(StorageError) in try await store.auditEntries(target: target, before: before, limit: limit) }
    }

    /// Writes to the audit log that `actor` did `action` to `target`: for
    /// what administrators change beside accounts (taxis, devices).
    public func recordAudit(actor: String, action: String, target: String, detail: String = "") async throws(AccountError) {
        try await audit(actor, action, target, detail)
    }

    /// Writes to the audit log that `actor` did `action` to `target`.
    func audit(_ actor: String, _ action: String, _ target: String, _ detail: String = "") async throws(AccountError) {
        let entry = AuditAction(actor: actor, action: action, target: target, detail: detail)
        _ = try await storing { () async throws(StorageError) in try await store.appendAudit(entry, at: clock.now) }
    }

    /// Runs a store change of `account`, which must still be there afterwards.
    private func changed(
        _ account: AccountRecord, _ body: () async throws(StorageError) -> AccountRecord?
    ) async throws(AccountError) -> AccountRecord {
        guard let now = try await storing(body) else { throw .unknownAccount(username: account.username) }
        return now
    }

    /// What an edit changed, in words: `role planner → dispatcher; email a@x → b@x`.
    private static func differences(from old: AccountRecord, to new: AccountRecord) -> String {
        var changes: [String] = []
        if old.role != new.role { changes.append("role \(old.role) → \(new.role)") }
        if old.email != new.email { changes.append("email \(old.email ?? "none") → \(new.email ?? "none")") }
        if old.taxi != new.taxi { changes.append("taxi \(old.taxi?.text ?? "none") → \(new.taxi?.text ?? "none")") }
        return changes.isEmpty ? "nothing changed" : changes.joined(separator: "; ")
    }
}
