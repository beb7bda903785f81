import Foundation
import ServiceClock
import Storage

extension AccountService {
    /// The most characters a bearer token is looked up with: issued tokens
    /// have 43; anything much longer is not one of ours.
    static let maximumBearerLength = 256

    /// Logs in (SPEC A2): checks the password against the stored bcrypt
    /// hash and issues a bearer token valid for
    /// ``AccountSettings/sessionLifetime``.
    ///
    /// An unknown username and a wrong password get the same error after
    /// the same work (a bcrypt check against a decoy hash), so neither the
    /// answer nor its time tells which usernames exist. Only with the right
    /// password does the caller learn that the account is disabled or that
    /// a passenger's e-mail address is not confirmed yet.
    /// - Throws: ``AccountError/invalid(_:)`` for credentials no account can
    ///   have (``loginProblem(username:password:)``), ``AccountError/badCredentials``, ``AccountError/disabled``,
    ///   ``AccountError/emailNotConfirmed``, ``AccountError/storage(_:)``.
    public func login(username: String, password: String) async throws(AccountError) -> SessionToken {
        let account = try await verifiedAccount(username: username, password: password)
        if account.role == .passenger && !account.emailConfirmed { throw .emailNotConfirmed }
        let now = clock.now
        let token = SecretToken()
        let record = TokenRecord(
            hash: token.hash, accountID: account.id, kind: .session, createdAt: now,
            expiresAt: now.addingTimeInterval(settings.sessionLifetime / .seconds(1)))
        try await storing { () async throws(StorageError) in try await store.insertToken(record) }
        return SessionToken(token: token.text, expiresAt: record.expiresAt, account: account)
    }

    /// Logs out: revokes the bearer token `token`, which stops working at
    /// once. Harmless for a token that is unknown or already revoked.
    /// - Returns: whether a working session token was revoked.
    @discardableResult
    public func logout(token: String) async throws(AccountError) -> Bool {
        guard token.utf8.count <= Self.maximumBearerLength else { return false }
        let hash = SecretToken.hash(of: token)
        let revoked = try await storing { () async throws(StorageError) -> Bool in
            guard let found = try await store.token(hash: hash), found.token.kind == .session else { return false }
            return try await store.revokeToken(hash: hash)
        }
        sessions.forget(tokenHash: hash)
        if revoked { sessionEnds.tell(.loggedOut(tokenHash: hash)) }
        return revoked
    }

    /// The account a bearer token logs in, nil when the token is unknown,
    /// expired, revoked, not a session token, or its account disabled (see
    /// ``authenticateSession(bearer:)``).
    /// - Throws: ``AccountError/storage(_:)`` only: a bad token is nil.
    public func authenticate(bearer: String) async throws(AccountError) -> AccountRecord? {
        try await authenticateSession(bearer: bearer)?.account
    }

    /// The session a bearer token logs in, nil when the token is unknown,
    /// expired, revoked, not a session token, or its account disabled (so
    /// disabling works at once, whatever was revoked). A session recognised
    /// lately costs no store read (``SessionCache``); otherwise one lookup
    /// by the token's hash.
    /// - Throws: ``AccountError/storage(_:)`` only: a bad token is nil.
    public func authenticateSession(bearer: String) async throws(AccountError) -> AuthenticatedSession? {
        guard !bearer.isEmpty, bearer.utf8.count <= Self.maximumBearerLength else { return nil }
        let hash = SecretToken.hash(of: bearer)
        let now = clock.now
        if let session = sessions.session(tokenHash: hash, now: now) { return session }
        let generation = sessions.generation
        let found = try await storing { () async throws(StorageError) in try await store.token(hash: hash) }
        guard let found, found.token.kind == .session, !found.token.revoked,
              now < found.token.expiresAt, !found.account.disabled
        else { return nil }
        sessions.remember(
            tokenHash: hash, account: found.account, expiresAt: found.token.expiresAt, checkedAt: now, since: generation)
        return AuthenticatedSession(account: found.account, tokenHash: hash, expiresAt: found.token.expiresAt)
    }

    /// Whether a bearer token that does not log in belongs to a disabled
    /// account, so that its holder is told to ask an administrator rather
    /// than to log in again (which would be refused too).
    /// - Throws: ``AccountError/storage(_:)``.
    public func belongsToDisabledAccount(bearer: String) async throws(AccountError) -> Bool {
        guard !bearer.isEmpty, bearer.utf8.count <= Self.maximumBearerLength else { return false }
        let hash = SecretToken.hash(of: bearer)
        let found = try await storing { () async throws(StorageError) in try await store.token(hash: hash) }
        return found?.token.kind == .session && found?.account.disabled == true
    }

    /// Confirms an e-mail address with the token of a confirmation e-mail,
    /// which then no longer works: a new passenger may log in from now on;
    /// an account that asked to move to a new address
    /// (``requestEmailChange(on:password:newEmail:)``) has it from now on.
    /// - Returns: the account, confirmed.
    /// - Throws: ``AccountError/invalidToken`` for a token unknown, used or
    ///   expired; ``AccountError/disabled``; ``AccountError/taken(field:value:)``
    ///   when another account took the new address meanwhile;
    ///   ``AccountError/storage(_:)``.
    @discardableResult
    public func confirmEmail(token: String) async throws(AccountError) -> AccountRecord {
        let found = try await workingToken(token, kind: .emailConfirmation, .emailChange)
        if found.account.disabled { throw .disabled }
        let confirmed = try await storing { () async throws(StorageError) in
            try await store.confirmEmail(accountID: found.account.id, tokenHash: found.token.hash)
        }
        sessions.forget(accountID: found.account.id)
        return confirmed ?? found.account
    }

    /// Writes a new confirmation e-mail, with a new token, for a passenger
    /// whose token expired or whose e-mail went astray; the password proves
    /// the account is the caller's. Writes nothing when the address is
    /// already confirmed.
    /// - Returns: the account as it is.
    /// - Throws: ``AccountError/badCredentials``, ``AccountError/disabled``, ``AccountError/storage(_:)``.
    @discardableResult
    public func requestConfirmationEmail(username: String, password: String) async throws(AccountError) -> AccountRecord {
        let account = try await verifiedAccount(username: username, password: password)
        guard let email = account.email, !account.emailConfirmed else { return account }
        let issued = confirmation(of: SecretToken(), to: email, username: account.username, at: clock.now)
        try await storing { () async throws(StorageError) in try await store.addConfirmation(issued, accountID: account.id) }
        return account
    }

    /// Why a login with these credentials cannot succeed whatever is
    /// stored: a username longer than any account may have, or a password
    /// bcrypt would shorten (past 72 bytes, or at a NUL byte), which would
    /// otherwise log in with only its first part. Nil when neither.
    public static func loginProblem(username: String, password: String) -> FieldProblem? {
        if username.count > AccountValidation.maximumUsernameLength {
            return FieldProblem(
                field: .username, problem: "a username has at most \(AccountValidation.maximumUsernameLength) characters")
        }
        if password.utf8.count > PasswordPolicy.maximumBytes || password.utf8.contains(0) {
            return FieldProblem(
                field: .password, problem: "a password has at most \(PasswordPolicy.maximumBytes) bytes and no NUL character")
        }
        return nil
    }

    /// The account named `username` if `password` is its password and it
    /// is not disabled. An unknown name costs the same bcrypt check as a
    /// known one and gets the same error as a wrong password.
    private func verifiedAccount(username: String, password: String) async throws(AccountError) -> AccountRecord {
        if let problem = Self.loginProblem(username: username, password: password) { throw .invalid([problem]) }
        let account = try await storing { () async throws(StorageError) in try await store.account(username: username) }
        guard let account else {
            _ = await hasher.verify(password, hash: decoyHash)
            throw .badCredentials
        }
        guard await hasher.verify(password, hash: account.passwordHash) else { throw .badCredentials }
        if account.disabled { throw .disabled }
        return account
    }
}
