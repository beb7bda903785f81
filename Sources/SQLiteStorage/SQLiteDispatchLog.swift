import Foundation
import GRDB
import ServiceClock
import Storage

/// The default dispatch log: `dispatch.sqlite` in the data directory, WAL
/// with `synchronous=FULL`, so a write is durable when it returns. Entries
/// are kept (they are the audit trail of every decision); the newest
/// snapshot replaces the one before. The write-ahead log is checkpointed
/// off the commit path, by a ``WALCheckpointer`` of its own.
///
/// Users' notifications are written with their entry into an unindexed
/// table, `notification_recent`, and filed into `notification`, indexed by
/// recipient, off the commit path every `filingInterval` by a
/// ``NotificationFiler``: an index keyed by recipient takes each new row at
/// a random place, and a burst of requests would otherwise dirty a page of
/// it per notification inside the transaction every caller waits on. Reads
/// look in both tables, in one transaction, so a notification is seen once
/// whether filed or not.
public final class SQLiteDispatchLog: DispatchLog {
    private let database: DatabasePool
    private let checkpointer: WALCheckpointer
    private let filer: NotificationFiler

    /// Opens (creating when needed) the log in `directory`, which must exist;
    /// notifications are filed every `filingInterval` of `upkeepClock`, the
    /// write-ahead log checkpointed every 250 ms of it.
    /// - Throws: ``StorageError/unavailable(location:reason:)``.
    public init(
        directory: String, filingInterval: Duration = .milliseconds(250), upkeepClock: any ServiceClock = SystemClock()
    ) throws(StorageError) {
        do {
            var configuration = Configuration()
            configuration.busyMode = .timeout(10)
            configuration.prepareDatabase { db in
                try db.execute(sql: "PRAGMA synchronous = FULL")
                try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
            }
            database = try DatabasePool(path: directory + "/dispatch.sqlite", configuration: configuration)
            try database.write { db in
                try db.execute(sql: "CREATE TABLE IF NOT EXISTS dispatch_log (sequence INTEGER PRIMARY KEY, payload BLOB NOT NULL)")
                try db.execute(sql: """
                    CREATE TABLE IF NOT EXISTS ride_history (
                        id INTEGER PRIMARY KEY, passenger TEXT NOT NULL, taxi TEXT, ended_ms INTEGER NOT NULL, record BLOB NOT NULL,
                        ride TEXT)
                    """)
                try Self.addRideColumnToOlderHistory(db)
                try db.execute(sql: "CREATE INDEX IF NOT EXISTS ride_history_passenger ON ride_history (passenger, ended_ms)")
                try db.execute(sql: "CREATE INDEX IF NOT EXISTS ride_history_taxi ON ride_history (taxi, ended_ms)")
                try db.execute(sql: """
                    CREATE TABLE IF NOT EXISTS notification (
                        sequence INTEGER NOT NULL, idx INTEGER NOT NULL, recipient TEXT NOT NULL, payload BLOB NOT NULL,
                        delivered INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (sequence, idx))
                    """)
                try db.execute(sql: "CREATE INDEX IF NOT EXISTS notification_undelivered ON notification (recipient, delivered, sequence, idx)")
                try db.execute(sql: """
                    CREATE TABLE IF NOT EXISTS notification_recent (
                        sequence INTEGER NOT NULL, idx INTEGER NOT NULL, recipient TEXT NOT NULL, payload BLOB NOT NULL)
                    """)
                try db.execute(sql: """
                    CREATE TABLE IF NOT EXISTS hourly_count (
                        subject TEXT NOT NULL, hour_ms INTEGER NOT NULL, measure TEXT NOT NULL, count INTEGER NOT NULL,
                        PRIMARY KEY (subject, hour_ms, measure)) WITHOUT ROWID
                    """)
                try db.execute(sql: "CREATE INDEX IF NOT EXISTS hourly_count_hour ON hourly_count (hour_ms, subject)")
                try db.execute(sql: """
                    CREATE TABLE IF NOT EXISTS dispatch_snapshot (
                        id INTEGER PRIMARY KEY CHECK (id = 1), sequence INTEGER NOT NULL, payload BLOB NOT NULL)
                    """)
            }
            checkpointer = try WALCheckpointer(path: directory + "/dispatch.sqlite", clock: upkeepClock)
            filer = NotificationFiler(database: database, interval: filingInterval, clock: upkeepClock)
        } catch {
            throw .unavailable(location: "the data directory \(directory)", reason: "\(error)")
        }
    }

    public func write(_ writes: [DispatchLogWrite]) throws(StorageError) {
        guard !writes.isEmpty else { return }
        do {
            let encoder = JSONEncoder()
            try database.write { db in
                var last = try Int64.fetchOne(db, sql: "SELECT max(sequence) FROM dispatch_log") ?? 0
                // Every command writes its entry and one or two notifications (unindexed until filed),
                // through SQLite's C interface: the commit is on the way of every command's answer.
                let insertEntry = try PreparedInsert("INSERT INTO dispatch_log (sequence, payload) VALUES (?, ?)", in: db)
                let insertNotification = try PreparedInsert(
                    "INSERT INTO notification_recent (sequence, idx, recipient, payload) VALUES (?, ?, ?, ?)", in: db)
                var counts: [HourlyCount] = []
                for write in writes {
                    switch write {
                    case .entry(let entry):
                        try InMemoryDispatchLog.checkOrder(entry.sequence, after: last)
                        insertEntry.bind(entry.sequence, at: 1)
                        insertEntry.bind(entry.payload, at: 2)
                        try insertEntry.insert("dispatch log entry \(entry.sequence)")
                        last = entry.sequence
                    case .snapshot(let snapshot):
                        try db.execute(
                            sql: "INSERT OR REPLACE INTO dispatch_snapshot (id, sequence, payload) VALUES (1, ?, ?)",
                            arguments: [snapshot.sequence, snapshot.payload])
                    case .history(let record):
                        try db.cachedStatement(sql: "INSERT INTO ride_history (passenger, taxi, ended_ms, record, ride) VALUES (?, ?, ?, ?, ?)")
                            .execute(arguments: [
                                record.passenger, record.taxi, Self.milliseconds(record.endedAt), try encoder.encode(record), record.ride,
                            ])
                    case .notification(let notification):
                        insertNotification.bind(notification.key.sequence, at: 1)
                        insertNotification.bind(Int64(notification.key.index), at: 2)
                        insertNotification.bind(notification.recipient, at: 3)
                        insertNotification.bind(notification.payload, at: 4)
                        try insertNotification.insert("notification \(notification.key) for \(notification.recipient)")
                    case .counts(let more):
                        counts += more
                    }
                }
                // A batch of commands mostly counts the same few zones in the same hour: one row each.
                for count in HourlyCount.summed(counts) {
                    try db.cachedStatement(sql: """
                        INSERT INTO hourly_count (subject, hour_ms, measure, count) VALUES (?, ?, ?, ?)
                        ON CONFLICT (subject, hour_ms, measure) DO UPDATE SET count = count + excluded.count
                        """).execute(arguments: [count.subject, Self.milliseconds(count.hour), count.measure, count.count])
                }
            }
        } catch let error as StorageError {
            throw error
        } catch {
            throw .writeFailed(reason: "\(error)")
        }
    }

    /// Files the notifications written since the last filing into the
    /// table indexed by recipient now, as the log does every `filingInterval`.
    /// - Throws: ``StorageError/writeFailed(reason:)``.
    public func fileNotifications() throws(StorageError) {
        try filer.file()
    }

    public func history(ofPassenger passenger: String, since: Date, limit: Int) async throws(StorageError) -> [RideHistoryRecord] {
        try await history(where: "passenger = ?", passenger, since: since, limit: limit)
    }

    public func history(ofPassengersPrefixed prefix: String, since: Date, limit: Int) async throws(StorageError) -> [RideHistoryRecord] {
        // A range on the passenger index: every id from the prefix to the prefix's last character's successor.
        try await history(where: "passenger >= ? AND passenger < ?", [prefix, PassengerPrefix.successor(of: prefix)], since: since, limit: limit)
    }

    public func history(ofTaxi taxi: String, since: Date, limit: Int) async throws(StorageError) -> [RideHistoryRecord] {
        try await history(where: "taxi = ?", taxi, since: since, limit: limit)
    }

    private func history(where condition: String, _ value: String, since: Date, limit: Int) async throws(StorageError) -> [RideHistoryRecord] {
        try await history(where: condition, [value], since: since, limit: limit)
    }

    private func history(where condition: String, _ values: [String], since: Date, limit: Int) async throws(StorageError) -> [RideHistoryRecord] {
        do {
            return try await database.read { db in
                try Data.fetchAll(
                    db,
                    sql: "SELECT record FROM ride_history WHERE \(condition) AND ended_ms >= ? ORDER BY ended_ms DESC, id DESC LIMIT ?",
                    arguments: StatementArguments(values.map { $0 as (any DatabaseValueConvertible)? } + [Self.milliseconds(since), limit])
                ).map { try JSONDecoder().decode(RideHistoryRecord.self, from: $0) }
            }
        } catch {
            throw .readFailed(reason: "\(error)")
        }
    }

    public func endedRide(_ ride: String) async throws(StorageError) -> RideHistoryRecord? {
        do {
            return try await database.read { db in
                try Data.fetchOne(db, sql: "SELECT record FROM ride_history WHERE ride = ? ORDER BY id DESC LIMIT 1", arguments: [ride])
                    .map { try JSONDecoder().decode(RideHistoryRecord.self, from: $0) }
            }
        } catch {
            throw .readFailed(reason: "\(error)")
        }
    }

    /// Gives a history written before rides were looked up by id its
    /// `ride` column, filled from each record, and the column its index.
    private static func addRideColumnToOlderHistory(_ db: Database) throws {
        let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(ride_history)").map { $0["name"] as String }
        if !columns.contains("ride") {
            try db.execute(sql: "ALTER TABLE ride_history ADD COLUMN ride TEXT")
            try db.execute(sql: "UPDATE ride_history SET ride = json_extract(CAST(record AS TEXT), '$.ride')")
        }
        try db.execute(sql: "CREATE INDEX IF NOT EXISTS ride_history_ride ON ride_history (ride)")
    }

    public func undeliveredNotifications(for recipient: String, limit: Int) async throws(StorageError) -> [StoredNotification] {
        do {
            return try await database.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT sequence, idx, payload FROM notification WHERE recipient = ? AND delivered = 0
                        UNION ALL
                        SELECT sequence, idx, payload FROM notification_recent WHERE recipient = ?
                        ORDER BY sequence, idx LIMIT ?
                        """,
                    arguments: [recipient, recipient, limit]
                ).map { StoredNotification(key: NotificationKey(sequence: $0["sequence"], index: $0["idx"]), recipient: recipient, payload: $0["payload"]) }
            }
        } catch {
            throw .readFailed(reason: "\(error)")
        }
    }

    public func markNotificationsDelivered(_ marks: [(recipient: String, through: NotificationKey)]) async throws(StorageError) {
        guard !marks.isEmpty else { return }
        do {
            try await database.write { db in
                // The marks may reach notifications not filed yet: file them first, then mark through the index.
                try NotificationFiler.move(in: db)
                for mark in marks {
                    try db.execute(
                        sql: """
                            UPDATE notification SET delivered = 1
                            WHERE recipient = ? AND delivered = 0 AND (sequence < ? OR (sequence = ? AND idx <= ?))
                            """,
                        arguments: [mark.recipient, mark.through.sequence, mark.through.sequence, mark.through.index])
                }
            }
        } catch {
            throw .writeFailed(reason: "\(error)")
        }
    }

    @discardableResult
    public func anonymise(passenger: String, as replacement: String, recipient: String?) async throws(StorageError) -> Int {
        do {
            return try await database.write { db in
                let rows = try Row.fetchAll(db, sql: "SELECT id, record FROM ride_history WHERE passenger = ?", arguments: [passenger])
                let encoder = JSONEncoder()
                for row in rows {
                    var record = try JSONDecoder().decode(RideHistoryRecord.self, from: row["record"] as Data)
                    record.passenger = replacement
                    try db.execute(
                        sql: "UPDATE ride_history SET passenger = ?, record = ? WHERE id = ?",
                        arguments: [replacement, try encoder.encode(record), row["id"] as Int64])
                }
                try NotificationFiler.move(in: db)
                try db.execute(sql: "DELETE FROM notification WHERE recipient = ?", arguments: [recipient])
                return rows.count
            }
        } catch {
            throw .writeFailed(reason: "\(error)")
        }
    }

    public func counts(ofSubjectsPrefixed prefix: String, hours: Range<Date>) async throws(StorageError) -> [HourlyCount] {
        do {
            return try await database.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT subject, hour_ms, measure, count FROM hourly_count
                        WHERE hour_ms >= ? AND hour_ms < ? AND subject >= ? AND subject < ?
                        ORDER BY subject, hour_ms, measure
                        """,
                    arguments: [
                        Self.milliseconds(hours.lowerBound), Self.milliseconds(hours.upperBound), prefix, PassengerPrefix.successor(of: prefix),
                    ]
                ).map { row in
                    HourlyCount(
                        subject: row["subject"], hour: Date(timeIntervalSince1970: Double(row["hour_ms"] as Int64) / 1000),
                        measure: row["measure"], count: row["count"])
                }
            }
        } catch {
            throw .readFailed(reason: "\(error)")
        }
    }

    private static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    public func latestSnapshot() async throws(StorageError) -> DispatchLogSnapshot? {
        do {
            return try await database.read { db in
                try Row.fetchOne(db, sql: "SELECT sequence, payload FROM dispatch_snapshot WHERE id = 1").map {
                    DispatchLogSnapshot(sequence: $0["sequence"], payload: $0["payload"])
                }
            }
        } catch {
            throw .readFailed(reason: "\(error)")
        }
    }

    public func entries(after sequence: Int64, limit: Int) async throws(StorageError) -> [DispatchLogEntry] {
        do {
            return try await database.read { db in
                try Row.fetchAll(
                    db, sql: "SELECT sequence, payload FROM dispatch_log WHERE sequence > ? ORDER BY sequence LIMIT ?",
                    arguments: [sequence, max(0, limit)]
                ).map { DispatchLogEntry(sequence: $0["sequence"], payload: $0["payload"]) }
            }
        } catch {
            throw .readFailed(reason: "\(error)")
        }
    }
}
