import Accounts
import DispatchCore
import FixRecords
import Storage

/// Who is calling the API: the account behind the request's bearer token.
public struct Caller: Sendable, Equatable {
    /// The account, as stored.
    public let account: AccountRecord
    /// The session of the bearer token, for what stays open on it (a push
    /// socket closes when it ends); nil where no token was presented (a test's caller).
    public let session: AuthenticatedSession?

    /// The caller of `account`, logged in by `session`.
    public init(account: AccountRecord, session: AuthenticatedSession? = nil) {
        self.account = account
        self.session = session
    }

    /// What the caller may do (SPEC A1).
    public var role: Role { account.role }

    /// The caller's username.
    public var username: String { account.username }

    /// The taxi a driver drives (username = taxi id, SPEC A2); nil for other roles.
    public var taxi: TaxiID? { role == .driver ? account.taxi ?? TaxiID(account.username) : nil }

    /// The passenger the engine knows this caller as: the username, which
    /// never contains a colon, so that it never meets a phone caller's
    /// `phone:` id.
    public var passenger: PassengerID { PassengerID(account.username) }

    /// True when the caller may see a ride or booking of `owner`: a
    /// passenger its own, any other role that gets this far every one.
    public func may(see owner: PassengerID) -> Bool {
        role != .passenger || owner == passenger
    }
}
