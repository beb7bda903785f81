import Foundation
import Storage

/// The dispatch log on PostgreSQL (SPEC D7, D8): entries, the newest
/// snapshot, the ride history and the notifications, each batch in one
/// transaction, durable when `write` returns (the server's commit); writes
/// under a lease of ``PostgresDispatchOwnership`` when several nodes share it.
public final class PostgresDispatchLog: FencedDispatchLog {
    private let pool: PostgresPool

    /// The log in `pool`'s database, whose schema must be migrated (``PostgresSchema/migrate(_:)``).
    public init(pool: PostgresPool) {
        self.pool = pool
    }

    /// The check a fenced write makes first: the lease (`$1` node, `$2`
    /// epoch) is still held, and its row stays locked until the commit.
    static let fenceCheck = """
        SELECT epoch FROM dispatch_owner
        WHERE id = 1 AND node = $1 AND epoch = $2 AND lease_until > clock_timestamp() FOR KEY SHARE
        """

    public func write(_ writes: [DispatchLogWrite]) throws(StorageError) {
        try write(writes, fence: nil)
    }

    public func write(_ writes: [DispatchLogWrite], holding lease: DispatchLease) throws(StorageError) {
        try write(writes, fence: lease)
    }

    /// The writes in one transaction, which first checks `fence` and keeps
    /// its lease row locked (`FOR KEY SHARE`) until the commit, so that a
    /// claim taking the engine over, which replaces the row, waits for the
    /// commit and its new owner reads these writes, while the holder's
    /// renewals, which only move the lease's end, never wait for them.
    private func write(_ writes: [DispatchLogWrite], fence: DispatchLease?) throws(StorageError) {
        guard !writes.isEmpty else { return }
        do {
            let encoder = JSONEncoder()
            try pool.transaction { connection in
                if let fence {
                    let held = try connection.query(Self.fenceCheck, [.text(fence.node), .integer(fence.epoch)])
                    guard held.count == 1 else { throw StorageError.notDispatchOwner(lease: fence) }
                }
                var last = try connection.query("SELECT coalesce(max(sequence), 0) AS last FROM dispatch_log").integer(0, "last")
                var counts: [HourlyCount] = []
                for write in writes {
                    switch write {
                    case .entry(let entry):
                        try InMemoryDispatchLog.checkOrder(entry.sequence, after: last)
                        try connection.query(
                            "INSERT INTO dispatch_log (sequence, payload) VALUES ($1, $2)",
                            [.integer(entry.sequence), .bytes(entry.payload)])
                        last = entry.sequence
                    case .snapshot(let snapshot):
                        try connection.query(
                            """
                            INSERT INTO dispatch_snapshot (id, sequence, payload) VALUES (1, $1, $2)
                            ON CONFLICT (id) DO UPDATE SET sequence = excluded.sequence, payload = excluded.payload
                            """,
                            [.integer(snapshot.sequence), .bytes(snapshot.payload)])
                    case .history(let record):
                        try connection.query(
                            """
                            INSERT INTO ride_history (passenger, taxi, ended_at, record, ride)
                            VALUES ($1, $2, to_timestamp($3::int8 / 1000.0), $4, $5)
                            """,
                            [.text(record.passenger), .optional(record.taxi), .integer(record.endedAt.storedMilliseconds),
                             .bytes(try encoder.encode(record)), .optional(record.ride)])
                    case .notification(let notification):
                        try connection.query(
                            "INSERT INTO notification (sequence, idx, recipient, payload) VALUES ($1, $2, $3, $4)",
                            [.integer(notification.key.sequence), .integer(Int64(notification.key.index)),
                             .text(notification.recipient), .bytes(notification.payload)])
                    case .counts(let more):
                        counts += more
                    }
                }
                // Summed first: one statement may not update a row twice, and a batch mostly counts the same few rows.
                for count in HourlyCount.summed(counts) {
                    try connection.query(
                        """
                        INSERT INTO hourly_count (subject, hour, measure, count) VALUES ($1, to_timestamp($2::int8 / 1000.0), $3, $4)
                        ON CONFLICT (subject, hour, measure) DO UPDATE SET count = hourly_count.count + excluded.count
                        """,
                        [.text(count.subject), .integer(count.hour.storedMilliseconds), .text(count.measure), .integer(count.count)])
                }
            }
        } catch let error as StorageError {
            throw error
        } catch {
            throw .writeFailed(reason: "\(error)")
        }
    }

    public func latestSnapshot() async throws(StorageError) -> DispatchLogSnapshot? {
        try await pool.run({ .readFailed(reason: $0) }) { connection in
            let rows = try connection.query("SELECT sequence, payload FROM dispatch_snapshot WHERE id = 1")
            guard rows.count == 1 else { return nil }
            return DispatchLogSnapshot(sequence: try rows.integer(0, "sequence"), payload: try rows.bytes(0, "payload"))
        }
    }

    public func entries(after sequence: Int64, limit: Int) async throws(StorageError) -> [DispatchLogEntry] {
        try await pool.run({ .readFailed(reason: $0) }) { connection in
            let rows = try connection.query(
                "SELECT sequence, payload FROM dispatch_log WHERE sequence > $1 ORDER BY sequence LIMIT $2",
                [.integer(sequence), .integer(Int64(max(0, limit)))])
            return try (0..<rows.count).map { DispatchLogEntry(sequence: try rows.integer($0, "sequence"), payload: try rows.bytes($0, "payload")) }
        }
    }

    public func history(ofPassenger passenger: String, since: Date, limit: Int) async throws(StorageError) -> [RideHistoryRecord] {
        try await history(column: "passenger", passenger, since: since, limit: limit)
    }

    public func history(ofTaxi taxi: String, since: Date, limit: Int) async throws(StorageError) -> [RideHistoryRecord] {
        try await history(column: "taxi", taxi, since: since, limit: limit)
    }

    public func history(ofPassengersPrefixed prefix: String, since: Date, limit: Int) async throws(StorageError) -> [RideHistoryRecord] {
        let parameters: [PostgresValue] = [
            .text(prefix), .text(PassengerPrefix.successor(of: prefix)), .integer(since.storedMilliseconds), .integer(Int64(max(0, limit))),
        ]
        return try await pool.run({ .readFailed(reason: $0) }) { connection in
            // A range on the passenger index (COLLATE "C": byte order, whatever the database's collation).
            let rows = try connection.query(
                """
                SELECT record FROM ride_history
                WHERE passenger COLLATE "C" >= $1 AND passenger COLLATE "C" < $2 AND ended_at >= to_timestamp($3::int8 / 1000.0)
                ORDER BY ended_at DESC, id DESC LIMIT $4
                """, parameters)
            return try (0..<rows.count).map { try JSONDecoder().decode(RideHistoryRecord.self, from: try rows.bytes($0, "record")) }
        }
    }

    /// `column` is one of this type's own column names, never a caller's text.
    private func history(column: String, _ value: String, since: Date, limit: Int) async throws(StorageError) -> [RideHistoryRecord] {
        let parameters: [PostgresValue] = [.text(value), .integer(since.storedMilliseconds), .integer(Int64(max(0, limit)))]
        return try await pool.run({ .readFailed(reason: $0) }) { connection in
            let rows = try connection.query(
                """
                SELECT record FROM ride_history WHERE \(column) = $1 AND ended_at >= to_timestamp($2::int8 / 1000.0)
                ORDER BY ended_at DESC, id DESC LIMIT $3
                """, parameters)
            return try (0..<rows.count).map { try JSONDecoder().decode(RideHistoryRecord.self, from: try rows.bytes($0, "record")) }
        }
    }

    public func endedRide(_ ride: String) async throws(StorageError) -> RideHistoryRecord? {
        try await pool.run({ .readFailed(reason: $0) }) { connection in
            let rows = try connection.query("SELECT record FROM ride_history WHERE ride = $1 ORDER BY id DESC LIMIT 1", [.text(ride)])
            guard rows.count == 1 else { return nil }
            return try JSONDecoder().decode(RideHistoryRecord.self, from: try rows.bytes(0, "record"))
        }
    }

    public func undeliveredNotifications(for recipient: String, limit: Int) async throws(StorageError) -> [StoredNotification] {
        try await pool.run({ .readFailed(reason: $0) }) { connection in
            let rows = try connection.query(
                """
                SELECT sequence, idx, payload FROM notification WHERE recipient = $1 AND NOT delivered
                ORDER BY sequence, idx LIMIT $2
                """, [.text(recipient), .integer(Int64(max(0, limit)))])
            return try (0..<rows.count).map { row in
                StoredNotification(
                    key: NotificationKey(sequence: try rows.integer(row, "sequence"), index: Int(try rows.integer(row, "idx"))),
                    recipient: recipient, payload: try rows.bytes(row, "payload"))
            }
        }
    }

    public func markNotificationsDelivered(_ marks: [(recipient: String, through: NotificationKey)]) async throws(StorageError) {
        guard !marks.isEmpty else { return }
        let parameters: [[PostgresValue]] = marks.map {
            [.text($0.recipient), .integer($0.through.sequence), .integer(Int64($0.through.index))]
        }
        try await pool.run(transaction: true, { .writeFailed(reason: $0) }) { connection in
            for mark in parameters {
                try connection.query(
                    """
                    UPDATE notification SET delivered = true
                    WHERE recipient = $1 AND NOT delivered AND (sequence, idx) <= ($2::int8, $3::int4)
                    """, mark)
            }
        }
    }

    @discardableResult
    public func anonymise(passenger: String, as replacement: String, recipient: String?) async throws(StorageError) -> Int {
        try await pool.run(transaction: true, { .writeFailed(reason: $0) }) { connection in
            let rows = try connection.query("SELECT id, record FROM ride_history WHERE passenger = $1 FOR UPDATE", [.text(passenger)])
            let encoder = JSONEncoder()
            for row in 0..<rows.count {
                var record = try JSONDecoder().decode(RideHistoryRecord.self, from: try rows.bytes(row, "record"))
                record.passenger = replacement
                try connection.query(
                    "UPDATE ride_history SET passenger = $1, record = $2 WHERE id = $3",
                    [.text(replacement), .bytes(try encoder.encode(record)), .integer(try rows.integer(row, "id"))])
            }
            try connection.query("DELETE FROM notification WHERE recipient = $1", [.optional(recipient)])
            return rows.count
        }
    }

    public func counts(ofSubjectsPrefixed prefix: String, hours: Range<Date>) async throws(StorageError) -> [HourlyCount] {
        let parameters: [PostgresValue] = [
            .integer(hours.lowerBound.storedMilliseconds), .integer(hours.upperBound.storedMilliseconds),
            .text(prefix), .text(PassengerPrefix.successor(of: prefix)),
        ]
        return try await pool.run({ .readFailed(reason: $0) }) { connection in
            let rows = try connection.query(
                """
                SELECT subject, (extract(epoch FROM hour) * 1000)::int8 AS hour_ms, measure, count FROM hourly_count
                WHERE hour >= to_timestamp($1::int8 / 1000.0) AND hour < to_timestamp($2::int8 / 1000.0)
                  AND subject >= $3 AND subject < $4
                ORDER BY subject, hour, measure
                """, parameters)
            return try (0..<rows.count).map { row in
                HourlyCount(
                    subject: try rows.string(row, "subject"), hour: Date(timeIntervalSince1970: Double(try rows.integer(row, "hour_ms")) / 1000),
                    measure: try rows.string(row, "measure"), count: try rows.integer(row, "count"))
            }
        }
    }
}
