import FixRecords
import Foundation
import ServiceClock
import Storage
import GeoKit
import GRDB
import Synchronization
import Zones

/// The default archive: two SQLite files in the data directory, shaped like
/// a small log-structured store so that a fix costs a few bytes of disk
/// writes, not a page.
///
/// - `fixes-journal.sqlite` takes every commit: an append-only table (WAL,
///   `synchronous=FULL`), so a commit is one sequential write and one fsync,
///   and `append` returns only once the fixes are on disk. It has two such
///   tables, `journal` and `journal_alt`; commits go to the active one.
/// - `fixes.sqlite` is the queryable store (`FixStore`): segments keyed by
///   (taxi, time, device), and the newest fix of every taxi. A background
///   mover switches the active journal table, copies the other one into the
///   store in one sorted batch, then empties it whole. The store also runs
///   with `synchronous=FULL`: a move's copy is synced before the journal rows
///   are deleted, so moved fixes survive a power loss, not only `kill -9`
///   (one fsync per move, ten a second at most, off the ACK path).
///   The store has its own writer lock, so moving never stalls a commit
///   (and so never delays an ACK) beyond the one quick emptying.
///
/// Queries read both files and merge them; a fix a device resent after a
/// lost ACK is returned once.
public final class SQLiteFixArchive: FixArchive, JournaledArchive {
    let journal: DatabasePool
    /// A connection of its own for WAL checkpoints of the journal, which
    /// never take the write lock and so never hold up a commit.
    let journalCheckpointer: DatabaseQueue
    let store: DatabasePool
    /// The data directory, for messages.
    public let directory: String
    let mover: JournalMover
    /// Rows per store segment (`FixStore`).
    let segmentRows: Int
    /// The journal tables; commits append to the active one.
    static let journalTables = ["journal", "journal_alt"]
    private let activeJournalIndex = Mutex(0)

    /// Why the background mover's last move failed, while moves keep
    /// failing (nil once one succeeds): the journal keeps the fixes, but it
    /// grows and queries miss nothing only as long as it can be read, so an
    /// operator must hear of it (`/healthz`).
    public var moveFailure: String? { mover.failure }

    /// Opens (creating when needed) the archive in `directory`, which must exist.
    /// `moveInterval` is how often journal rows move to the store, on
    /// `upkeepClock`;
    /// `segmentRows` how many rows a store segment takes; `onMove` hears
    /// about every move, `onMoveFailure` about every failed one (with how
    /// many failed in a row, so that a caller can log the first and not
    /// ten a second).
    public init(directory: String, moveInterval: Duration = .milliseconds(100),
                upkeepClock: any ServiceClock = SystemClock(),
                segmentRows: Int = FixStore.defaultSegmentRows,
                onMove: @escaping @Sendable (JournalMoveReport) -> Void = { _ in },
                onMoveFailure: @escaping @Sendable (_ error: any Error, _ inARow: Int) -> Void = { _, _ in }) throws {
        self.directory = directory
        self.segmentRows = segmentRows
        do {
            journal = try Self.open(directory + "/fixes-journal.sqlite", synchronous: "FULL", autoCheckpoint: false)
            try journal.write { db in
                for table in Self.journalTables { try db.execute(sql: Self.journalSchema(table)) }
            }
            var checkpointerConfiguration = Configuration()
            checkpointerConfiguration.busyMode = .timeout(10)
            journalCheckpointer = try DatabaseQueue(
                path: directory + "/fixes-journal.sqlite", configuration: checkpointerConfiguration)
            store = try Self.open(directory + "/fixes.sqlite", synchronous: "FULL", autoCheckpoint: true)
            try store.write { db in try FixStore.prepare(db) }
            // The store's writer reads the journal directly, so moving rows is one SQL statement.
            try store.writeWithoutTransaction { db in
                try db.execute(sql: "ATTACH DATABASE ? AS journal", arguments: [directory + "/fixes-journal.sqlite"])
            }
        } catch {
            throw StorageError.unavailable(location: "the data directory \(directory)", reason: "\(error)")
        }
        mover = JournalMover(interval: moveInterval, clock: upkeepClock, report: onMove, reportFailure: onMoveFailure)
        mover.start(archive: self)
    }

    deinit {
        mover.stop()
    }

    private static func open(_ path: String, synchronous: String, autoCheckpoint: Bool) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = \(synchronous)")
            if !autoCheckpoint { try db.execute(sql: "PRAGMA wal_autocheckpoint = 0") }
        }
        return try DatabasePool(path: path, configuration: configuration)
    }

    private static func journalSchema(_ table: String) -> String {
        "CREATE TABLE IF NOT EXISTS \(table) (seq INTEGER PRIMARY KEY, \(FixStore.fixColumnsSchema))"
    }

    /// The journal table commits append to now.
    var activeJournal: String { Self.journalTables[activeJournalIndex.withLock { $0 }] }

    /// The journal table commits do not append to: only the mover touches it.
    var inactiveJournal: String { Self.journalTables[1 - activeJournalIndex.withLock { $0 }] }

    /// Makes the inactive journal table the active one. Runs as a journal
    /// write, so commits before it wrote to the old table and commits after
    /// it write to the new one: the old table is frozen once this returns.
    func switchActiveJournal() throws {
        try journal.write { _ in activeJournalIndex.withLock { $0 = 1 - $0 } }
    }

    public func append(_ fixes: [AcceptedFix]) throws(StorageError) {
        guard !fixes.isEmpty else { return }
        do {
            try journal.write { db in try JournalInsert.append(fixes, to: activeJournal, in: db) }
        } catch let error as StorageError {
            throw error
        } catch {
            throw .writeFailed(reason: "\(error)")
        }
    }

    public func fixes(of taxi: TaxiID, in window: ClosedRange<Date>, limit: Int) async throws(StorageError) -> [AcceptedFix] {
        let arguments: StatementArguments = [
            taxi.text, Self.milliseconds(window.lowerBound), Self.milliseconds(window.upperBound), limit,
        ]
        let fixes = try await journalThenStore(
            journal: { db in
                try Self.journalTables.flatMap { table in
                    try Row.fetchAll(
                        db,
                        sql: """
                            SELECT \(FixStore.columns) FROM \(table) WHERE taxi_id = ?1 AND time_ms BETWEEN ?2 AND ?3
                            ORDER BY time_ms, device_id LIMIT ?4
                            """,
                        arguments: arguments)
                }
            },
            store: { db in try Row.fetchAll(db, sql: FixStore.fixesOfTaxiInWindow, arguments: arguments) })
        return Array(Self.oldestFirstOnce(fixes).prefix(limit))
    }

    public func latestFixPerTaxi() async throws(StorageError) -> [AcceptedFix] {
        let fixes = try await journalThenStore(
            journal: { db in
                try Self.journalTables.flatMap { table in try Row.fetchAll(db, sql: FixStore.newestPerTaxi(in: table)) }
            },
            store: { db in try Row.fetchAll(db, sql: FixStore.latestPerTaxi) })
        let latest = Dictionary(fixes.map { ($0.taxiId, $0) }) { $0.time >= $1.time ? $0 : $1 }
        return latest.values.sorted { $0.taxiId < $1.taxiId }
    }

    /// The fixes of the rows a query finds in the journal tables, then in
    /// the store: rows are copied into the store before they leave the
    /// journal, so a row moving meanwhile is seen at least once (and
    /// ``oldestFirstOnce(_:)`` keeps it once).
    func journalThenStore(
        journal journalRows: @escaping @Sendable (Database) throws -> [Row],
        store storeRows: @escaping @Sendable (Database) throws -> [Row]
    ) async throws(StorageError) -> [AcceptedFix] {
        do {
            let journaled = try await journal.read { db in try journalRows(db).compactMap(Self.fix(from:)) }
            let stored = try await store.read { db in try storeRows(db).compactMap(Self.fix(from:)) }
            return stored + journaled
        } catch {
            throw .readFailed(reason: "\(error)")
        }
    }

    /// Moves everything journaled so far into the store now, as the
    /// background mover does every interval: for tools and benchmarks that
    /// need the store current.
    public func moveJournalToStore() throws {
        try mover.moveNow(archive: self)
    }

    public func count() async throws(StorageError) -> Int {
        do {
            try moveJournalToStore()
        } catch {
            throw .writeFailed(reason: "moving the journal into the store before counting: \(error)")
        }
        do {
            return try await store.read { db in try Int.fetchOne(db, sql: FixStore.distinctFixCount) ?? 0 }
        } catch {
            throw .readFailed(reason: "\(error)")
        }
    }

    /// Fixes of both files oldest first, each (taxi, time, device) once.
    private static func oldestFirstOnce(_ fixes: [AcceptedFix]) -> [AcceptedFix] {
        var seen = Set<String>()
        return fixes
            .sorted { ($0.time, $0.deviceId) < ($1.time, $1.deviceId) }
            .filter { seen.insert("\($0.taxiId.text)|\($0.time.timeIntervalSince1970)|\($0.deviceId)").inserted }
    }

    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    private static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    static func fix(from row: Row) -> AcceptedFix? {
        guard let wireProtocol = WireProtocol(rawValue: row["protocol"]) else { return nil }
        let zone: String? = row["zone_id"]
        let taxi: String = row["taxi_id"]
        return AcceptedFix(
            taxiId: TaxiID(taxi), deviceId: row["device_id"], wireProtocol: wireProtocol,
            time: date(milliseconds: row["time_ms"]),
            coordinate: Coordinate(longitude: row["lon"], latitude: row["lat"]),
            speedKmh: row["speed_kmh"], heading: row["heading"], zoneId: zone.map { ZoneID($0) },
            receivedAt: date(milliseconds: row["received_ms"]))
    }
}
