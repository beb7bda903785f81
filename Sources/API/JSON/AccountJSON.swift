import FixRecords
import Ingest
import Storage

/// An account as the API shows it: never the password hash.
struct AccountJSON: Codable, Equatable, Sendable {
    var username: String
    /// `passenger`, `driver`, `dispatcher`, `planner`, `administrator`, `partner`.
    var role: String
    var email: String?
    /// A driver's taxi.
    var taxiId: String?
    var emailConfirmed: Bool
    var disabled: Bool
    /// `active`, `unconfirmed`, `disabled` or `deleted`.
    var state: String
    /// ISO 8601.
    var createdAt: String

    /// The JSON of `account`.
    init(_ account: AccountRecord) {
        username = account.username
        role = account.role.rawValue
        email = account.email
        taxiId = account.taxi?.text
        emailConfirmed = account.emailConfirmed
        disabled = account.disabled
        state = account.state.rawValue
        createdAt = FixTime.iso8601(account.createdAt)
    }
}
