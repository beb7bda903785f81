import FixRecords
import Foundation

/// One stored account: who may log in, as what, and whether they still may.
///
/// Not `Codable` on purpose: it carries the password hash, which no answer
/// should ever contain; encode the fields you mean to show. Its
/// `description` leaves the hash out for the same reason, so logging an
/// account is safe.
public struct AccountRecord: Sendable, Equatable, CustomStringConvertible {
    /// The store's id, from 1, never reused.
    public let id: Int64
    /// The login name, unique regardless of ASCII case (`Bob` and `bob` are one name).
    public let username: String
    /// What the account may do.
    public let role: Role
    /// The e-mail address (required of passengers), unique regardless of ASCII case.
    public let email: String?
    /// The bcrypt hash of the password (`$2b$...`), never the password itself.
    public let passwordHash: String
    /// The taxi a driver drives (nil for every other role).
    public let taxi: TaxiID?
    /// Whether the e-mail address was confirmed (passengers log in only then).
    public let emailConfirmed: Bool
    /// A disabled account cannot log in, and its tokens no longer work.
    public let disabled: Bool
    /// When the account was created, to the millisecond.
    public let createdAt: Date
    /// A deleted account keeps only its id, a placeholder username
    /// (``AccountRecord/deletedUsername(id:)``) and its anonymised rides.
    public let deleted: Bool

    /// An account as the store returns it.
    public init(
        id: Int64, username: String, role: Role, email: String?, passwordHash: String, taxi: TaxiID?,
        emailConfirmed: Bool, disabled: Bool, createdAt: Date, deleted: Bool = false
    ) {
        self.id = id
        self.username = username
        self.role = role
        self.email = email
        self.passwordHash = passwordHash
        self.taxi = taxi
        self.emailConfirmed = emailConfirmed
        self.disabled = disabled
        self.createdAt = createdAt
        self.deleted = deleted
    }

    /// The username a deleted account keeps, which no registration can
    /// take (a username has no `~`): its rides stay under this name.
    public static func deletedUsername(id: Int64) -> String { "deleted~\(id)" }

    /// What a deleted account keeps for a password hash: no bcrypt hash,
    /// so that no password ever matches it.
    public static let erasedPasswordHash = "!"


    /// `username (role)`, then the e-mail, the taxi and the flags that apply; never the hash.
    public var description: String {
        var parts = ["\(username) (\(role))"]
        if let email { parts.append("email \(email)" + (emailConfirmed ? "" : " unconfirmed")) }
        if let taxi { parts.append("taxi \(taxi)") }
        if deleted { parts.append("deleted") } else if disabled { parts.append("disabled") }
        return parts.joined(separator: ", ")
    }
}
