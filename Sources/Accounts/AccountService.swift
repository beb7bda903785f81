import FixRecords
import Foundation
import HummingbirdBcrypt
import ServiceClock
import Storage

/// Accounts, passwords and tokens (SPEC A1, A2): what the API calls to
/// register passengers, confirm their e-mail addresses, log people in and
/// out, recognise a bearer token, and let administrators create, list and
/// disable accounts. No HTTP here; the API maps ``AccountError`` to answers.
///
/// Passwords are kept only as bcrypt hashes, computed off the cooperative
/// thread pool (``AccountSettings/bcryptCost`` says what one costs). Tokens
/// are 256 random bits, stored only as their SHA-256, and expire by the
/// injected clock's wall time, so tests move time instead of waiting.
///
/// Every fact is in the store, so several services (and `mytaxi accounts
/// create`) may share one store; the sessions recognised lately are also
/// kept in memory (``AccountSettings/sessionRecheckInterval``), and what
/// this service revokes or disables is forgotten there at once.
///
/// ```swift
/// let accounts = AccountService(store: try SQLiteAccountStore(directory: dataDirectory))
/// try await accounts.registerPassenger(username: "ada", email: "ada@example.org", password: "analytical-1")
/// // ... the token from the outbox's e-mail ...
/// try await accounts.confirmEmail(token: token)
/// let session = try await accounts.login(username: "ada", password: "analytical-1")
/// let caller = try await accounts.authenticate(bearer: session.token)   // the account
/// ```
public final class AccountService: Sendable {
    let store: any AccountStore
    let clock: any ServiceClock
    let settings: AccountSettings
    let hasher: PasswordHasher
    /// The password rules every new account must meet.
    public let policy: PasswordPolicy
    /// A hash of no one's password, checked against when a username is
    /// unknown, so that a wrong name takes as long as a wrong password.
    let decoyHash: String
    /// The sessions recognised lately, so that a request costs no store read.
    let sessions: SessionCache
    /// Tells what keeps something open on a session (the push sockets)
    /// that this service logged it out or disabled its account.
    public let sessionEnds = SessionEnds()

    /// A service over `store`, reading the time from `clock`.
    ///
    /// Computes one bcrypt hash at the configured cost (for the decoy), so
    /// it takes as long as one login to make.
    public init(
        store: any AccountStore, clock: any ServiceClock = SystemClock(), settings: AccountSettings = AccountSettings(),
        policy: PasswordPolicy = PasswordPolicy()
    ) {
        self.store = store
        self.clock = clock
        self.settings = settings
        self.policy = policy
        hasher = PasswordHasher(cost: settings.bcryptCost)
        sessions = SessionCache(recheckInterval: settings.sessionRecheckInterval)
        decoyHash = Bcrypt.hash(SecretToken().text, cost: settings.bcryptCost)
    }

    /// Registers a passenger: checks every field, stores the account with
    /// the password's bcrypt hash, and writes a confirmation e-mail with a
    /// one-time token to the outbox (valid for
    /// ``AccountSettings/confirmationLifetime``), all in one transaction.
    /// The passenger can log in once the token is back (``confirmEmail(token:)``).
    ///
    /// An address that already has an account is not registered again, and
    /// the caller is not told: the address gets an e-mail naming its account
    /// instead, after the same work (a bcrypt hash) as a registration. First
    /// the passengers who never confirmed and whose tokens all expired are
    /// deleted, so an abandoned registration holds no name or address.
    /// - Returns: what was done; the API answers both outcomes alike.
    /// - Throws: ``AccountError/invalid(_:)`` with every problem of every
    ///   field; ``AccountError/taken(field:value:)`` when the username belongs
    ///   to another account (case does not matter); ``AccountError/storage(_:)``.
    @discardableResult
    public func registerPassenger(username: String, email: String, password: String) async throws(AccountError) -> PassengerRegistration {
        try check(username: username, email: email, password: password)
        let now = clock.now
        try await storing { () async throws(StorageError) in try await store.deleteUnconfirmedPassengers(asOf: now) }
        try await checkFree(username: username)
        let token = SecretToken()
        let issued = confirmation(of: token, to: email, username: username, at: now)
        let account = NewAccount(
            username: username, role: .passenger, email: email, passwordHash: await hasher.hash(password),
            taxi: nil, emailConfirmed: false, createdAt: now)
        do {
            return .registered(try await store.insert(account, confirmation: issued))
        } catch .conflict(field: AccountField.email.rawValue, _) {
            try await tellAddressItHasAnAccount(email, at: now)
            return .addressAlreadyRegistered
        } catch {
            throw Self.accountError(error)
        }
    }

    /// Creates an account of any role on an administrator's word (SPEC A2),
    /// and the first administrator from the command line: its e-mail
    /// address, if any, counts as confirmed. The audit log says `actor` did it. A passenger needs an e-mail
    /// address; a driver drives `taxi`, by default the taxi whose id is the
    /// username; no other role has a taxi. Whether the taxi is in the
    /// devices file is for the caller to check.
    /// - Throws: ``AccountError/invalid(_:)`` when a field breaks the rules
    ///   of its form (with the role's problems too),
    ///   ``AccountError/notForRole(_:)`` when only the role's rules are
    ///   broken, ``AccountError/taken(field:value:)``, ``AccountError/storage(_:)``.
    @discardableResult
    public func createAccount(
        role: Role, username: String, password: String, email: String? = nil, taxi: TaxiID? = nil,
        by actor: String = AccountService.consoleActor
    ) async throws(AccountError) -> AccountRecord {
        var malformed: [FieldProblem] = []
        do {
            try check(username: username, email: email, password: password)
        } catch .invalid(let problems) {
            malformed = problems
        }
        if let taxi, taxi.text.trimmingCharacters(in: .whitespaces).isEmpty {
            malformed.append(FieldProblem(field: .taxi, problem: "the taxi id is empty"))
        }
        var forRole: [FieldProblem] = []
        if role == .passenger && email == nil {
            forRole.append(FieldProblem(field: .email, problem: "a passenger needs an e-mail address"))
        }
        if role != .driver, taxi != nil {
            forRole.append(FieldProblem(field: .taxi, problem: "only a driver has a taxi, not a \(role)"))
        }
        guard malformed.isEmpty else { throw .invalid(malformed + forRole) }
        guard forRole.isEmpty else { throw .notForRole(forRole) }
        try await checkFree(username: username)
        let account = NewAccount(
            username: username, role: role, email: email, passwordHash: await hasher.hash(password),
            taxi: role == .driver ? taxi ?? TaxiID(username) : nil, emailConfirmed: email != nil, createdAt: clock.now)
        let created = try await storing { () async throws(StorageError) in try await store.insert(account, confirmation: nil) }
        try await audit(actor, "account.create", created.username, created.description)
        return created
    }

    /// The newest `limit` e-mails of the outbox, newest first: what a mail
    /// relay would send, for administrators to read.
    public func outbox(limit: Int = 50) async throws(AccountError) -> [OutboxEmail] {
        try await storing { () async throws(StorageError) in try await store.outbox(limit: limit) }
    }

    /// Forgets tokens that expired before now, which nothing needs any
    /// longer, and the passengers who never confirmed their address before
    /// their tokens expired (a periodic chore of the service).
    /// - Returns: how many tokens and how many accounts were forgotten.
    @discardableResult
    public func purgeExpired() async throws(AccountError) -> (tokens: Int, accounts: Int) {
        let now = clock.now
        return try await storing { () async throws(StorageError) in
            let accounts = try await store.deleteUnconfirmedPassengers(asOf: now)
            return (try await store.deleteTokens(expiredBefore: now), accounts)
        }
    }

    /// Sends `email` the e-mail naming the account it already has.
    private func tellAddressItHasAnAccount(_ email: String, at now: Date) async throws(AccountError) {
        try await storing { () async throws(StorageError) in
            guard let owner = try await store.account(email: email) else { return }
            try await store.send(AccountExistsEmail.message(to: email, account: owner), at: now)
        }
    }

    /// Throws every problem of the fields given, by field.
    private func check(username: String, email: String?, password: String) throws(AccountError) {
        let problems = AccountValidation.usernameProblems(username).map { FieldProblem(field: .username, problem: $0) }
            + (email.map(AccountValidation.emailProblems) ?? []).map { FieldProblem(field: .email, problem: $0) }
            + policy.problems(in: password).map { FieldProblem(field: .password, problem: $0) }
        guard problems.isEmpty else { throw .invalid(problems) }
    }

    /// Refuses a taken username before the cost of hashing a password (the
    /// store checks again when it writes).
    private func checkFree(username: String) async throws(AccountError) {
        let existing = try await storing { () async throws(StorageError) in try await store.account(username: username) }
        if existing != nil { throw .taken(field: .username, value: username) }
    }

    /// A new confirmation token's record and e-mail, issued at `now`.
    func confirmation(of token: SecretToken, to email: String, username: String, at now: Date) -> AccountConfirmation {
        let expiresAt = now.addingTimeInterval(settings.confirmationLifetime / .seconds(1))
        return AccountConfirmation(
            tokenHash: token.hash, createdAt: now, expiresAt: expiresAt,
            email: ConfirmationEmail.message(
                to: email, username: username, token: token.text, expiresAt: expiresAt,
                linkPrefix: settings.confirmationLinkPrefix))
    }

    /// Runs a store call, turning a conflict into the field taken and any
    /// other failure into ``AccountError/storage(_:)``.
    func storing<T>(_ body: () async throws(StorageError) -> T) async throws(AccountError) -> T {
        do {
            return try await body()
        } catch {
            throw Self.accountError(error)
        }
    }

    /// A store's failure as an account error: a conflict names the field taken.
    static func accountError(_ error: StorageError) -> AccountError {
        if case .conflict(let field, let value) = error {
            return .taken(field: AccountField(rawValue: field) ?? .username, value: value)
        }
        return .storage(error)
    }
}
