import Foundation

/// What confirming an e-mail address takes, written with the account (or
/// later, for a new e-mail) in one transaction: a one-time token, by its
/// hash, and the e-mail that carries the token to its owner.
public struct AccountConfirmation: Sendable, Equatable {
    /// SHA-256 of the token's text.
    public var tokenHash: Data
    /// When the token is issued and the e-mail written.
    public var createdAt: Date
    /// From when on the token no longer works.
    public var expiresAt: Date
    /// The e-mail carrying the token.
    public var email: EmailMessage

    /// A confirmation issued at `createdAt`, valid until `expiresAt`.
    public init(tokenHash: Data, createdAt: Date, expiresAt: Date, email: EmailMessage) {
        self.tokenHash = tokenHash
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.email = email
    }
}
