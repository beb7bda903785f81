/// What a stored token is good for: no two are interchangeable.
public enum TokenKind: String, Sendable, Codable, CaseIterable {
    /// A bearer token from a login, sent as `Authorization: Bearer ...`.
    case session
    /// The one-time token of a confirmation e-mail.
    case emailConfirmation
    /// The one-time token of a "forgot password" e-mail: sets a new password.
    case passwordReset
    /// The one-time token sent to a new e-mail address: the account takes
    /// the address (the token's ``TokenRecord/email``) when it comes back.
    case emailChange
}
