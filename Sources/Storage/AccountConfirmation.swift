import Foundation

/// A one-time token sent by e-mail, written with the account (or later)
/// in one transaction: the token, by its hash, and the e-mail that carries
/// it to its owner. It confirms an e-mail address (the registration's, or
/// a new one the account moves to), or resets a forgotten password.
public struct AccountConfirmation: Sendable, Equatable {
    /// SHA-256 of the token's text.
    public var tokenHash: Data
    /// When the token is issued and the e-mail written.
    public var createdAt: Date
    /// From when on the token no longer works.
    public var expiresAt: Date
    /// The e-mail carrying the token.
    public var email: EmailMessage
    /// What the token is good for: ``TokenKind/emailConfirmation``,
    /// ``TokenKind/emailChange`` or ``TokenKind/passwordReset``.
    public var kind: TokenKind
    /// The address an ``TokenKind/emailChange`` token moves the account to.
    public var newAddress: String?

    /// A token issued at `createdAt`, valid until `expiresAt`.
    public init(
        tokenHash: Data, createdAt: Date, expiresAt: Date, email: EmailMessage, kind: TokenKind = .emailConfirmation,
        newAddress: String? = nil
    ) {
        self.kind = kind
        self.newAddress = newAddress
        self.tokenHash = tokenHash
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.email = email
    }
}
