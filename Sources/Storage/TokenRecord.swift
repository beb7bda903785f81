import Foundation

/// One issued token as the store keeps it: the SHA-256 of the token, never
/// the token, so that a copy of the database lets nobody log in.
public struct TokenRecord: Sendable, Equatable {
    /// SHA-256 of the token's text (32 bytes): the key it is found by.
    public let hash: Data
    /// The account it belongs to.
    public let accountID: Int64
    /// What it is good for.
    public let kind: TokenKind
    /// When it was issued, to the millisecond.
    public let createdAt: Date
    /// From when on it no longer works, to the millisecond.
    public let expiresAt: Date
    /// Whether it was revoked (a logout, a disabled account, a used confirmation).
    public let revoked: Bool
    /// The new e-mail address an ``TokenKind/emailChange`` token confirms; nil for every other kind.
    public let email: String?

    /// A token record; `revoked` is false for one being issued.
    public init(
        hash: Data, accountID: Int64, kind: TokenKind, createdAt: Date, expiresAt: Date, revoked: Bool = false,
        email: String? = nil
    ) {
        self.hash = hash
        self.accountID = accountID
        self.kind = kind
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.revoked = revoked
        self.email = email
    }
}
