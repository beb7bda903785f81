import FixRecords
import Storage
import TaxiDispatch

/// Who is calling the API: the account behind the request's bearer token.
public struct Caller: Sendable, Equatable {
    /// The account, as stored.
    public let account: AccountRecord

    /// The caller of `account`.
    public init(account: AccountRecord) {
        self.account = account
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
}
