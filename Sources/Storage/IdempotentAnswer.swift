import Foundation

/// The answer the API gave a request that carried an `Idempotency-Key`,
/// kept so that the same request sent again (a client retrying after a
/// timeout, or on another node after one died) gets this answer instead of
/// being carried out twice.
public struct IdempotentAnswer: Sendable, Equatable {
    /// The key as the client sent it, scoped to the caller, the method and
    /// the path, so that two callers' keys never meet.
    public let scope: String
    /// A digest of the request's body: the same key sent with another body
    /// is a client's mistake, refused rather than answered.
    public let fingerprint: String
    /// The answer's HTTP status.
    public let status: Int
    /// The answer's `Content-Type`, nil when it had none.
    public let contentType: String?
    /// The answer's `Location`, nil when it had none.
    public let location: String?
    /// The answer's body.
    public let body: Data
    /// When it was first given.
    public let answeredAt: Date

    /// The answer `status` with `body` to the request of `scope` and `fingerprint`, given at `answeredAt`.
    public init(
        scope: String, fingerprint: String, status: Int, contentType: String?, location: String?, body: Data, answeredAt: Date
    ) {
        self.scope = scope
        self.fingerprint = fingerprint
        self.status = status
        self.contentType = contentType
        self.location = location
        self.body = body
        self.answeredAt = answeredAt.roundedToStoredMilliseconds
    }
}
