import Foundation

/// A notification for one user (SPEC D7), written in the same transaction
/// as the dispatch log entry whose decision it tells, so that nothing
/// acknowledged is ever left untold. It stays undelivered until a push
/// socket or `GET /v1/notifications` hands it over, once.
public struct StoredNotification: Sendable, Equatable {
    /// Where it stands among all notifications: its entry, then its place among that entry's.
    public let key: NotificationKey
    /// Whom it is for, e.g. `passenger:alice` or `taxi:T1`.
    public let recipient: String
    /// The notification as the service encoded it (JSON).
    public let payload: Data

    /// A notification for `recipient` told by entry `key.sequence`.
    public init(key: NotificationKey, recipient: String, payload: Data) {
        self.key = key
        self.recipient = recipient
        self.payload = payload
    }
}

/// The place of a notification: the dispatch log entry that told it, then
/// its place among that entry's notifications. Keys grow with time, so a
/// client that has seen a key has seen everything before it.
public struct NotificationKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The sequence number of the log entry.
    public let sequence: Int64
    /// Its place among the entry's notifications, from 0.
    public let index: Int

    /// The key of the `index`-th notification of entry `sequence`.
    public init(sequence: Int64, index: Int) {
        self.sequence = sequence
        self.index = index
    }

    /// How many notifications one log entry may tell: one entry concerns
    /// at most every taxi and passenger of a city, far fewer than this.
    public static let idsPerEntry: Int64 = 1_000_000

    /// The id the API gives the notification: a whole number that grows
    /// with the key (`1042000001` for `1042.1`), so a client keeps the
    /// highest it saw and drops any id not above it. It stays below 2^53
    /// (exact in JavaScript) for the first 9 × 10^9 log entries.
    public var id: Int64 { sequence * Self.idsPerEntry + Int64(index) }

    /// The key for logs, `sequence.index` (e.g. `1042.1`).
    public var description: String { "\(sequence).\(index)" }

    public static func < (lhs: NotificationKey, rhs: NotificationKey) -> Bool {
        (lhs.sequence, lhs.index) < (rhs.sequence, rhs.index)
    }
}
