import FixRecords
import Foundation

/// An account to store: everything but the id, which the store gives.
/// The caller has already checked its fields; the store checks only that
/// the username, the e-mail address and the taxi are not taken.
public struct NewAccount: Sendable, Equatable {
    /// The login name.
    public var username: String
    /// What the account may do.
    public var role: Role
    /// The e-mail address, if any.
    public var email: String?
    /// The bcrypt hash of the password.
    public var passwordHash: String
    /// The taxi a driver drives.
    public var taxi: TaxiID?
    /// Whether the e-mail address counts as confirmed from the start.
    public var emailConfirmed: Bool
    /// When it is created (the store keeps it to the millisecond).
    public var createdAt: Date

    /// An account to store, enabled.
    public init(
        username: String, role: Role, email: String?, passwordHash: String, taxi: TaxiID?,
        emailConfirmed: Bool, createdAt: Date
    ) {
        self.username = username
        self.role = role
        self.email = email
        self.passwordHash = passwordHash
        self.taxi = taxi
        self.emailConfirmed = emailConfirmed
        self.createdAt = createdAt
    }
}
