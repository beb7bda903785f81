/// What a stored token is good for: the two are never interchangeable.
public enum TokenKind: String, Sendable, Codable, CaseIterable {
    /// A bearer token from a login, sent as `Authorization: Bearer ...`.
    case session
    /// The one-time token of a confirmation e-mail.
    case emailConfirmation
}
