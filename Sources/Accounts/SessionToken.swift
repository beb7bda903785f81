import Foundation
import Storage

/// What a login hands out: the bearer token (shown once, stored only as
/// its hash), when it stops working, and whose it is.
public struct SessionToken: Sendable, Equatable {
    /// The token to send as `Authorization: Bearer ...`: 256 random bits in base64url (43 characters).
    public let token: String
    /// From when on the token no longer works.
    public let expiresAt: Date
    /// The account it logs in.
    public let account: AccountRecord

    /// A token issued to `account`.
    public init(token: String, expiresAt: Date, account: AccountRecord) {
        self.token = token
        self.expiresAt = expiresAt
        self.account = account
    }
}
