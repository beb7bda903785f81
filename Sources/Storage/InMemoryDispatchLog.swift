import Foundation
import Synchronization

/// A dispatch log in memory, for tests and simulations where nothing needs
/// to survive the process. Same contract as the SQLite log; with an
/// ``InMemoryDispatchOwnership``, the fenced writes of several nodes too.
public final class InMemoryDispatchLog: FencedDispatchLog {
    private struct Contents {
        var entries: [DispatchLogEntry] = []
        var snapshot: DispatchLogSnapshot?
        var history: [RideHistoryRecord] = []
        var notifications: [StoredNotification] = []
        var deliveredThrough: [String: NotificationKey] = [:]
        var counts: [HourlyCount] = []
    }

    private let contents = Mutex(Contents())
    private let ownership: InMemoryDispatchOwnership?

    /// An empty log; its fenced writes check `ownership`'s leases (none:
    /// every fenced write is refused, as with one node nobody holds one).
    public init(ownership: InMemoryDispatchOwnership? = nil) {
        self.ownership = ownership
    }

    public func write(_ writes: [DispatchLogWrite], holding lease: DispatchLease) throws(StorageError) {
        guard let ownership else { throw .notDispatchOwner(lease: lease) }
        try ownership.whileHolding(lease) { () throws(StorageError) in try write(writes) }
    }

    public func write(_ writes: [DispatchLogWrite]) throws(StorageError) {
        try contents.withLock { (contents: inout Contents) throws(StorageError) in
            var next = contents
            for write in writes {
                switch write {
                case .entry(let entry):
                    try Self.checkOrder(entry.sequence, after: next.entries.last?.sequence ?? 0)
                    next.entries.append(entry)
                case .snapshot(let snapshot):
                    next.snapshot = snapshot
                case .history(let record):
                    next.history.append(record)
                case .notification(let notification):
                    next.notifications.append(notification)
                case .counts(let counts):
                    next.counts = HourlyCount.summed(next.counts + counts)
                }
            }
            contents = next
        }
    }

    public func latestSnapshot() async throws(StorageError) -> DispatchLogSnapshot? {
        contents.withLock { $0.snapshot }
    }

    public func entries(after sequence: Int64, limit: Int) async throws(StorageError) -> [DispatchLogEntry] {
        contents.withLock { contents in Array(contents.entries.lazy.filter { $0.sequence > sequence }.prefix(max(0, limit))) }
    }

    public func history(ofPassenger passenger: String, since: Date, limit: Int) async throws(StorageError) -> [RideHistoryRecord] {
        Self.newestFirst(contents.withLock { $0.history }.filter { $0.passenger == passenger && $0.endedAt >= since }, limit: limit)
    }

    public func history(ofPassengersPrefixed prefix: String, since: Date, limit: Int) async throws(StorageError) -> [RideHistoryRecord] {
        Self.newestFirst(contents.withLock { $0.history }.filter { $0.passenger.hasPrefix(prefix) && $0.endedAt >= since }, limit: limit)
    }

    public func history(ofTaxi taxi: String, since: Date, limit: Int) async throws(StorageError) -> [RideHistoryRecord] {
        Self.newestFirst(contents.withLock { $0.history }.filter { $0.taxi == taxi && $0.endedAt >= since }, limit: limit)
    }

    public func endedRide(_ ride: String) async throws(StorageError) -> RideHistoryRecord? {
        contents.withLock { $0.history }.last { $0.ride == ride }
    }

    public func undeliveredNotifications(for recipient: String, limit: Int) async throws(StorageError) -> [StoredNotification] {
        contents.withLock { contents in
            let delivered = contents.deliveredThrough[recipient]
            return Array(contents.notifications.filter { notification in
                notification.recipient == recipient && delivered.map { notification.key > $0 } ?? true
            }.prefix(limit))
        }
    }

    public func markNotificationsDelivered(_ marks: [(recipient: String, through: NotificationKey)]) async throws(StorageError) {
        contents.withLock { contents in
            for mark in marks {
                contents.deliveredThrough[mark.recipient] = max(contents.deliveredThrough[mark.recipient] ?? mark.through, mark.through)
            }
        }
    }

    @discardableResult
    public func anonymise(passenger: String, as replacement: String, recipient: String?) async throws(StorageError) -> Int {
        contents.withLock { contents in
            var moved = 0
            for index in contents.history.indices where contents.history[index].passenger == passenger {
                contents.history[index].passenger = replacement
                moved += 1
            }
            if let recipient {
                contents.notifications.removeAll { $0.recipient == recipient }
                contents.deliveredThrough[recipient] = nil
            }
            return moved
        }
    }

    public func counts(ofSubjectsPrefixed prefix: String, hours: Range<Date>) async throws(StorageError) -> [HourlyCount] {
        contents.withLock { $0.counts }.filter { $0.subject.hasPrefix(prefix) && hours.contains($0.hour) }
    }

    /// Most recent first; of records that ended together, the one written last first.
    private static func newestFirst(_ records: [RideHistoryRecord], limit: Int) -> [RideHistoryRecord] {
        Array(records.enumerated().sorted { ($0.element.endedAt, $0.offset) > ($1.element.endedAt, $1.offset) }.map(\.element).prefix(limit))
    }

    /// Rejects an entry that does not come after the last one, as a database key would.
    package static func checkOrder(_ sequence: Int64, after last: Int64) throws(StorageError) {
        guard sequence > last else {
            throw .writeFailed(reason: "dispatch log entry \(sequence) does not follow entry \(last)")
        }
    }
}
