import FixRecords
import Storage

/// What an administrator changes of an account (SPEC A2): each field left
/// nil stays as it is.
public struct AccountEdit: Sendable, Equatable {
    /// The new e-mail address (`.some(nil)` removes it, which a passenger
    /// may not do); an administrator's word confirms it.
    public var email: String??
    /// The new role, from one staff role to another only (dispatcher,
    /// planner, administrator, partner): a passenger's or driver's account
    /// is bound to a person or a taxi and keeps its role.
    public var role: Role?
    /// The taxi a driver drives from now on.
    public var taxi: TaxiID?

    /// An edit of the fields given.
    public init(email: String?? = nil, role: Role? = nil, taxi: TaxiID? = nil) {
        self.email = email
        self.role = role
        self.taxi = taxi
    }

    /// Whether it changes nothing at all.
    public var isEmpty: Bool { email == nil && role == nil && taxi == nil }

    /// The roles an account may be moved between.
    public static let staffRoles: Set<Role> = [.dispatcher, .planner, .administrator, .partner]
}
