import Foundation
import ServiceClock
import Storage

extension AccountService {
    /// Changes the password of the account logged in on `session`, when
    /// `current` is its password: every other session of the account ends
    /// at once (a stolen token stops working), this one goes on, and the
    /// account is told by e-mail, so that a change it did not make is seen.
    /// - Throws: ``AccountError/invalid(_:)`` naming the rules `new` breaks;
    ///   ``AccountError/wrongCurrentPassword``; ``AccountError/disabled``;
    ///   ``AccountError/storage(_:)``.
    @discardableResult
    public func changePassword(on session: AuthenticatedSession, current: String, new: String) async throws(AccountError) -> AccountRecord {
        let problems = policy.problems(in: new).map { FieldProblem(field: .password, problem: $0) }
        guard problems.isEmpty else { throw .invalid(problems) }
        let stored = try await verifiedOwner(of: session, password: current)
        return try await replacePassword(of: stored, hash: await hasher.hash(new), keeping: session.tokenHash)
    }

    /// Sends the "forgot password" e-mail to `email` (SPEC A2): a one-time
    /// token, valid for ``AccountSettings/passwordResetLifetime``, that sets
    /// a new password (``resetPassword(token:newPassword:)``). An address of
    /// no account, or of a disabled one, gets nothing, and the caller is not
    /// told: the answer is the same, so it tells no one which addresses are
    /// customers'.
    /// - Throws: ``AccountError/invalid(_:)`` for an address that cannot be
    ///   one, ``AccountError/storage(_:)``.
    public func requestPasswordReset(email: String) async throws(AccountError) {
        let problems = AccountValidation.emailProblems(email).map { FieldProblem(field: .email, problem: $0) }
        guard problems.isEmpty else { throw .invalid(problems) }
        let account = try await storing { () async throws(StorageError) in try await store.account(email: email) }
        guard let account, let address = account.email, !account.disabled else { return }
        try await issuePasswordReset(for: account, to: address)
    }

    /// Writes a "forgot password" e-mail, with a new token, to `address` for `account`.
    func issuePasswordReset(for account: AccountRecord, to address: String) async throws(AccountError) {
        let token = SecretToken()
        let now = clock.now
        let expiresAt = now.addingTimeInterval(settings.passwordResetLifetime / .seconds(1))
        let issued = AccountConfirmation(
            tokenHash: token.hash, createdAt: now, expiresAt: expiresAt,
            email: AccountEmails.passwordReset(
                to: address, username: account.username, token: token.text, expiresAt: expiresAt,
                linkPrefix: settings.passwordResetLinkPrefix),
            kind: .passwordReset)
        try await storing { () async throws(StorageError) in try await store.addConfirmation(issued, accountID: account.id) }
    }

    /// Sets a new password with the token of a "forgot password" e-mail,
    /// which then no longer works: every session of the account ends, and
    /// the account is told by e-mail.
    /// - Throws: ``AccountError/invalid(_:)`` naming the rules the password
    ///   breaks; ``AccountError/invalidToken`` for a token unknown, used or
    ///   expired; ``AccountError/disabled``; ``AccountError/storage(_:)``.
    @discardableResult
    public func resetPassword(token: String, newPassword: String) async throws(AccountError) -> AccountRecord {
        let problems = policy.problems(in: newPassword).map { FieldProblem(field: .password, problem: $0) }
        guard problems.isEmpty else { throw .invalid(problems) }
        let found = try await workingToken(token, kind: .passwordReset)
        if found.account.disabled { throw .disabled }
        return try await replacePassword(of: found.account, hash: await hasher.hash(newPassword), keeping: nil)
    }

    /// Moves the account logged in on `session` to the e-mail address
    /// `newEmail`, when `password` is its password: the new address gets a
    /// one-time token (valid for ``AccountSettings/confirmationLifetime``)
    /// and the account keeps its old address until the token comes back
    /// (``confirmEmail(token:)``); the old address is told.
    /// - Returns: the account as it is (still with the old address).
    /// - Throws: ``AccountError/invalid(_:)`` for an address that cannot be
    ///   one; ``AccountError/taken(field:value:)`` when another account has
    ///   it; ``AccountError/wrongCurrentPassword``; ``AccountError/disabled``;
    ///   ``AccountError/storage(_:)``.
    @discardableResult
    public func requestEmailChange(on session: AuthenticatedSession, password: String, newEmail: String) async throws(AccountError) -> AccountRecord {
        let problems = AccountValidation.emailProblems(newEmail).map { FieldProblem(field: .email, problem: $0) }
        guard problems.isEmpty else { throw .invalid(problems) }
        let stored = try await verifiedOwner(of: session, password: password)
        let owner = try await storing { () async throws(StorageError) in try await store.account(email: newEmail) }
        if let owner, owner.id != stored.id { throw .taken(field: .email, value: newEmail) }
        let now = clock.now
        var issued = confirmation(of: SecretToken(), to: newEmail, username: stored.username, at: now)
        issued.kind = .emailChange
        issued.newAddress = newEmail
        try await storing { () async throws(StorageError) in try await store.addConfirmation(issued, accountID: stored.id) }
        if let old = stored.email, old.lowercased() != newEmail.lowercased() {
            try await send(AccountEmails.emailChangeRequested(to: old, username: stored.username, newEmail: newEmail))
        }
        return stored
    }

    /// Sets the password hash of `account`, ending every session of it but
    /// `kept`'s, and tells its address by e-mail.
    func replacePassword(of account: AccountRecord, hash: String, keeping kept: Data?) async throws(AccountError) -> AccountRecord {
        let changed = try await storing { () async throws(StorageError) in
            try await store.changePassword(accountID: account.id, passwordHash: hash, keepingToken: kept)
        }
        guard let changed else { throw .unknownAccount(username: account.username) }
        sessions.forget(accountID: changed.id)
        sessionEnds.tell(.passwordChanged(accountID: changed.id, kept: kept))
        if let email = changed.email { try await send(AccountEmails.passwordChanged(to: email, username: changed.username)) }
        return changed
    }

    /// The stored account of `session` when `password` is its password and it is not disabled.
    private func verifiedOwner(of session: AuthenticatedSession, password: String) async throws(AccountError) -> AccountRecord {
        let id = session.account.id
        let stored = try await storing { () async throws(StorageError) in try await store.account(id: id) }
        guard let stored else { throw .unknownAccount(username: session.account.username) }
        if stored.disabled { throw .disabled }
        guard await hasher.verify(password, hash: stored.passwordHash) else { throw .wrongCurrentPassword }
        return stored
    }

    /// The stored token of `text` with its account, when it is of `kind`,
    /// not revoked and not expired.
    /// - Throws: ``AccountError/invalidToken`` otherwise.
    func workingToken(_ text: String, kind: TokenKind...) async throws(AccountError) -> (token: TokenRecord, account: AccountRecord) {
        guard text.utf8.count <= Self.maximumBearerLength else { throw .invalidToken }
        let hash = SecretToken.hash(of: text)
        let found = try await storing { () async throws(StorageError) in try await store.token(hash: hash) }
        guard let found, kind.contains(found.token.kind), !found.token.revoked, clock.now < found.token.expiresAt
        else { throw .invalidToken }
        return found
    }

    /// Puts `email` in the outbox, written now.
    func send(_ email: EmailMessage) async throws(AccountError) {
        try await storing { () async throws(StorageError) in try await store.send(email, at: clock.now) }
    }
}
