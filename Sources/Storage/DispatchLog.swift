import Foundation

/// The dispatch engine's durable event log (SPEC D8, DESIGN "durability
/// before acknowledgement"): every command the engine carried out, in
/// order, written before anyone hears of its outcome, and now and then a
/// snapshot of the whole state, so that a restart reads the newest
/// snapshot and replays only what came after it.
///
/// Entries and snapshots are opaque bytes to the store (the dispatch
/// service encodes them); each entry has a sequence number the writer
/// gives, strictly increasing. The PostgreSQL store implements the same
/// protocol; `DispatchLogContractTests` runs every implementation.
public protocol DispatchLog: Sendable {
    /// Appends `writes` in order, in one transaction: all of them are
    /// durable when this returns, or none is and it throws.
    func write(_ writes: [DispatchLogWrite]) throws(StorageError)

    /// The newest snapshot, nil when none was ever written.
    func latestSnapshot() async throws(StorageError) -> DispatchLogSnapshot?

    /// The entries with a sequence number above `sequence`, oldest first,
    /// at most `limit`: a reader pages through a long stretch of the log
    /// (a restore after a lapse of snapshots, a follower far behind) and
    /// holds one page at a time, not the whole stretch.
    func entries(after sequence: Int64, limit: Int) async throws(StorageError) -> [DispatchLogEntry]

    /// The rides and bookings of `passenger` that ended at `since` or
    /// later, most recent first, at most `limit` (SPEC D8).
    func history(ofPassenger passenger: String, since: Date, limit: Int) async throws(StorageError) -> [RideHistoryRecord]

    /// The rides and bookings of every passenger whose id starts with
    /// `prefix` (`phone:`, the dispatchers' phone callers) that ended at
    /// `since` or later, most recent first, at most `limit`.
    func history(ofPassengersPrefixed prefix: String, since: Date, limit: Int) async throws(StorageError) -> [RideHistoryRecord]

    /// The rides `taxi` served or was sent for that ended at `since` or
    /// later, most recent first, at most `limit` (SPEC D8).
    func history(ofTaxi taxi: String, since: Date, limit: Int) async throws(StorageError) -> [RideHistoryRecord]

    /// How ride request `ride` (`R12`) ended, nil while it is open or when
    /// no ride of that id ever ended: a dispatcher looks up a finished
    /// phone ride by the id told to the caller.
    func endedRide(_ ride: String) async throws(StorageError) -> RideHistoryRecord?

    /// The notifications for `recipient` not yet handed over, oldest
    /// first, at most `limit` (SPEC D7).
    func undeliveredNotifications(for recipient: String, limit: Int) async throws(StorageError) -> [StoredNotification]

    /// Records that `recipient` has been handed every notification up to
    /// and including `key`, so that none of them is handed over again.
    func markNotificationsDelivered(_ marks: [(recipient: String, through: NotificationKey)]) async throws(StorageError)

    /// Files every ride and booking of `passenger` under `replacement` (a
    /// deleted account's placeholder name) and forgets the notifications
    /// stored for it (for `recipient`, its name among them), together, so that the history keeps the rides for
    /// the statistics and names no one (SPEC A2: a deleted passenger's data
    /// is erased).
    /// - Returns: how many rides and bookings were filed anew.
    @discardableResult
    func anonymise(passenger: String, as replacement: String, recipient: String?) async throws(StorageError) -> Int

    /// The statistics of every subject whose name starts with `prefix`
    /// (`zone/`, `driver/ada`) for the hours that start in `hours`, each
    /// subject, hour and measure once with its counts added together, in
    /// subject, hour and measure order (``HourlyCount/summed(_:)``).
    func counts(ofSubjectsPrefixed prefix: String, hours: Range<Date>) async throws(StorageError) -> [HourlyCount]
}

/// One thing to write to a ``DispatchLog``.
public enum DispatchLogWrite: Sendable, Equatable {
    /// An entry of the log.
    case entry(DispatchLogEntry)
    /// The state after every entry up to and including its sequence number.
    case snapshot(DispatchLogSnapshot)
    /// A ride or booking that ended with the entry written with it.
    case history(RideHistoryRecord)
    /// A notification of the entry written with it (SPEC D7).
    case notification(StoredNotification)
    /// Figures of the statistics, added to the stored ones (``HourlyCount``).
    case counts([HourlyCount])
}

/// One entry of the dispatch log: a command as the service encoded it.
public struct DispatchLogEntry: Sendable, Equatable {
    /// Its place in the log, from 1.
    public let sequence: Int64
    /// The encoded command.
    public let payload: Data

    /// An entry at `sequence` carrying `payload`.
    public init(sequence: Int64, payload: Data) {
        self.sequence = sequence
        self.payload = payload
    }
}

/// The engine's whole state after the entries up to ``sequence``.
public struct DispatchLogSnapshot: Sendable, Equatable {
    /// The last entry the state includes (0: none).
    public let sequence: Int64
    /// The encoded state.
    public let payload: Data

    /// A snapshot of the state after entry `sequence`.
    public init(sequence: Int64, payload: Data) {
        self.sequence = sequence
        self.payload = payload
    }
}

extension DispatchLog {
    /// Every entry after `sequence`, oldest first, read a page at a time
    /// but returned together: for a stretch known to be short (a check, a
    /// test); the dispatcher reads long ones page by page.
    public func entries(after sequence: Int64) async throws(StorageError) -> [DispatchLogEntry] {
        var entries: [DispatchLogEntry] = []
        while true {
            let page = try await self.entries(after: entries.last?.sequence ?? sequence, limit: 10_000)
            entries += page
            if page.count < 10_000 { return entries }
        }
    }
}
