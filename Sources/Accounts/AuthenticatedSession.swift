import Foundation
import Storage

/// A session a bearer token logs in: whose it is, which token (by its
/// hash, never the token itself) and until when it works, for what stays
/// open on it (a push socket closes when the session ends).
public struct AuthenticatedSession: Sendable, Equatable {
    /// The account, as stored.
    public let account: AccountRecord
    /// The SHA-256 hash of the bearer token.
    public let tokenHash: Data
    /// When the session stops working.
    public let expiresAt: Date

    public init(account: AccountRecord, tokenHash: Data, expiresAt: Date) {
        self.account = account
        self.tokenHash = tokenHash
        self.expiresAt = expiresAt
    }
}
