import FixRecords
import Foundation

/// Where accounts, their tokens and the e-mail outbox live (SPEC A2):
/// everything a login needs to survive a restart.
///
/// The store keeps what it is given and guards uniqueness (a username, an
/// e-mail address, a taxi: each at most once, regardless of ASCII case);
/// the rules (password policy, expiry, who may log in) are the account
/// service's. Tokens are kept by their SHA-256 only. Dates are kept to the
/// millisecond, and every record returned carries the date as stored.
/// `AccountStoreContractTests` runs every implementation.
public protocol AccountStore: Sendable {
    /// Stores `account`, and with it, in the same transaction, the
    /// confirmation token and its e-mail when there is one.
    /// - Returns: the account as stored, with its id.
    /// - Throws: ``StorageError/conflict(field:value:)`` naming `username`,
    ///   `email` or `taxi` when another account has it (nothing is stored).
    @discardableResult
    func insert(_ account: NewAccount, confirmation: AccountConfirmation?) async throws(StorageError) -> AccountRecord

    /// The account with `id`, nil when there is none.
    func account(id: Int64) async throws(StorageError) -> AccountRecord?

    /// The account named `username` regardless of ASCII case, nil when there is none.
    func account(username: String) async throws(StorageError) -> AccountRecord?

    /// The account whose e-mail address is `email` regardless of ASCII case, nil when there is none.
    func account(email: String) async throws(StorageError) -> AccountRecord?

    /// The accounts that `query` finds, oldest first: at most `limit` of
    /// them, whose ids come after `after` (0: from the first), so that a
    /// long list is read page by page.
    func accounts(matching query: AccountQuery, after: Int64, limit: Int) async throws(StorageError) -> [AccountRecord]

    /// Issues a one-time token for the account with `accountID` (a
    /// confirmation, an e-mail change, a password reset): its token and
    /// e-mail, in one transaction.
    /// - Throws: ``StorageError/writeFailed(reason:)`` when there is no such account.
    func addConfirmation(_ confirmation: AccountConfirmation, accountID: Int64) async throws(StorageError)

    /// Marks the e-mail address of the account with `accountID` confirmed
    /// and revokes the token with `tokenHash` (it is good once), together;
    /// when the token carries a new address (``TokenKind/emailChange``),
    /// the account takes that address.
    /// - Returns: the account as it is now, nil when there is none.
    /// - Throws: ``StorageError/conflict(field:value:)`` naming `email` when
    ///   another account took the new address meanwhile (nothing changes).
    func confirmEmail(accountID: Int64, tokenHash: Data) async throws(StorageError) -> AccountRecord?

    /// Disables the account with `accountID` and revokes every token it
    /// has, together, so that none works from the moment this returns; or,
    /// with `disabled` false, enables it again (its old tokens stay revoked).
    /// - Returns: the account as it is now, nil when there is none.
    func setDisabled(_ disabled: Bool, accountID: Int64) async throws(StorageError) -> AccountRecord?

    /// Sets the role, the e-mail address (and whether it is confirmed) and
    /// the taxi of the account with `accountID`, as given. When the role or
    /// the taxi changes, every token of the account is revoked with it: a
    /// session acts for the account as it was when it logged in.
    /// - Returns: the account as it is now, nil when there is none.
    /// - Throws: ``StorageError/conflict(field:value:)`` naming `email` or
    ///   `taxi` when another account has it (nothing changes).
    func update(accountID: Int64, role: Role, email: String?, emailConfirmed: Bool, taxi: TaxiID?) async throws(StorageError) -> AccountRecord?

    /// Erases the personal data of the account with `accountID` and every
    /// token it has, together: its username becomes
    /// ``AccountRecord/deletedUsername(id:)``, its e-mail address, taxi and
    /// password are gone, and it is marked deleted and disabled for good.
    /// The row stays, so that its id is never reused.
    /// - Returns: the account as it is now, nil when there is none.
    func erase(accountID: Int64) async throws(StorageError) -> AccountRecord?

    /// Sets the password of the account with `accountID` (its hash) and
    /// revokes every token it has but `kept` (the session that changed
    /// it), together: every other session ends when this returns.
    /// - Returns: the account as it is now, nil when there is none.
    func changePassword(accountID: Int64, passwordHash: String, keepingToken kept: Data?) async throws(StorageError) -> AccountRecord?

    /// Stores an issued token.
    /// - Throws: ``StorageError/writeFailed(reason:)`` when its account does
    ///   not exist or a token with the same hash does.
    func insertToken(_ token: TokenRecord) async throws(StorageError)

    /// The token whose SHA-256 is `hash`, with its account, nil when there
    /// is none; expired and revoked tokens are returned too, as they are.
    func token(hash: Data) async throws(StorageError) -> (token: TokenRecord, account: AccountRecord)?

    /// Revokes the token whose SHA-256 is `hash`.
    /// - Returns: whether a token that was not yet revoked was revoked.
    @discardableResult
    func revokeToken(hash: Data) async throws(StorageError) -> Bool

    /// Forgets every token that expired before `date`, which no rule needs
    /// any longer, so that the table does not grow with every login.
    /// - Returns: how many were deleted.
    @discardableResult
    func deleteTokens(expiredBefore date: Date) async throws(StorageError) -> Int

    /// Deletes every passenger whose e-mail address was never confirmed and
    /// who holds no confirmation token that works at `date` (they all
    /// expired, or were forgotten), with their tokens, so that an abandoned
    /// registration frees its username and address. Accounts of other roles
    /// are never deleted.
    /// - Returns: how many accounts were deleted.
    @discardableResult
    func deleteUnconfirmedPassengers(asOf date: Date) async throws(StorageError) -> Int

    /// Puts `email` in the outbox, written at `date`: an e-mail that comes
    /// with no token, such as the one telling an address that it already
    /// has an account.
    func send(_ email: EmailMessage, at date: Date) async throws(StorageError)

    /// The newest `limit` e-mails of the outbox, newest first.
    func outbox(limit: Int) async throws(StorageError) -> [OutboxEmail]

    /// Takes the queued e-mails whose next attempt is due at `date` (or that
    /// were never tried), oldest first, at most `limit`, and puts their next
    /// attempt off to `claimedUntil`, in one transaction: what this process
    /// sends now, which no other process sharing the store takes meanwhile
    /// (nor this one again, should it stop before recording the attempt).
    /// - Returns: the e-mails taken, as they were before.
    func claimEmailsDue(at date: Date, claimedUntil: Date, limit: Int) async throws(StorageError) -> [OutboxEmail]

    /// Records an attempt to deliver the e-mail `id`: sent at `date` when
    /// `failure` is nil; else its reason, and queued again for `retryAt`,
    /// or failed for good when that is nil.
    func recordDelivery(ofEmail id: Int64, at date: Date, failure: String?, retryAt: Date?) async throws(StorageError)

    /// Writes `action` to the audit log, done at `date`.
    /// - Returns: the entry as stored, with its id.
    @discardableResult
    func appendAudit(_ action: AuditAction, at date: Date) async throws(StorageError) -> AuditEntry

    /// The audit log, newest first: at most `limit` entries whose ids come
    /// before `before` (`Int64.max`: from the newest), those about `target`
    /// only when it is given (regardless of ASCII case).
    func auditEntries(target: String?, before: Int64, limit: Int) async throws(StorageError) -> [AuditEntry]
}

extension AccountStore {
    /// Every account, or those with `role`, oldest first.
    public func accounts(role: Role?) async throws(StorageError) -> [AccountRecord] {
        try await accounts(matching: AccountQuery(role: role), after: 0, limit: .max)
    }
}
