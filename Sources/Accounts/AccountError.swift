import Storage

/// Why the account service refused or failed: the API decides the answer by
/// case (400, 422, 409, 401, 403, 503) and shows the description, which says
/// what is wrong and what to do.
public enum AccountError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Fields break the rules of their form (a username, e-mail address,
    /// password or taxi id that cannot be one): every problem, each with its
    /// field, the rules of the role too when there are any.
    case invalid([FieldProblem])
    /// Every field has its form, but the role rules them out: a passenger
    /// without an e-mail address, a taxi for another role than driver.
    /// Every such problem, each with its field.
    case notForRole([FieldProblem])
    /// Another account already has this username, e-mail address or taxi.
    case taken(field: AccountField, value: String)
    /// The username is unknown or the password wrong: one answer for both,
    /// so that nobody learns which usernames exist.
    case badCredentials
    /// A passenger logs in before confirming the e-mail address.
    case emailNotConfirmed
    /// The account was disabled by an administrator.
    case disabled
    /// A confirmation token that is unknown, used or expired.
    case invalidToken
    /// An administrator named an account that does not exist.
    case unknownAccount(username: String)
    /// A password change named a current password that is not the account's.
    case wrongCurrentPassword
    /// An administrator named a deleted account, which nothing changes any more.
    case deleted(username: String)
    /// The account store failed; nothing was changed.
    case storage(StorageError)

    public var description: String {
        switch self {
        case .invalid(let problems), .notForRole(let problems):
            problems.map(\.problem).joined(separator: "; ")
        case .taken(let field, let value):
            "the \(field) \(value) is already taken; choose another"
        case .badCredentials:
            "wrong username or password; check both and try again"
        case .emailNotConfirmed:
            "the e-mail address is not confirmed yet; use the token of the confirmation e-mail first"
        case .disabled:
            "this account is disabled; ask an administrator"
        case .invalidToken:
            "the token is unknown, already used or expired; ask for a new confirmation e-mail (or a new password reset)"
        case .unknownAccount(let username):
            "there is no account named \(username); check the name (list them with `mytaxi accounts list`)"
        case .wrongCurrentPassword:
            "the current password is not this account's; type it again (the password is unchanged)"
        case .deleted(let username):
            "the account \(username) is deleted: its personal data is erased and it cannot be changed or enabled; create a new account"
        case .storage(let error):
            "the account store failed: \(error)"
        }
    }
}
