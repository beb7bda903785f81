import FixRecords
import Foundation
import GeoKit
import ServiceClock
import Storage
import Synchronization
import Zones

/// The fix archive on PostgreSQL (SPEC I6): table `fixes`, partitioned by
/// day on the fix's time, each fix also a PostGIS `geometry(Point, 4326)`
/// with a GiST index, so that reporting can ask spatial questions of it.
///
/// Shaped like the SQLite archive, for the same reason: indexes cost most
/// of a write. A batch (one group commit) goes by `COPY ... FROM STDIN
/// (FORMAT binary)` into `fix_journal`, a logged table without any index,
/// and `append` returns once that is committed, so nothing is acknowledged
/// that PostgreSQL does not hold. A background mover (``JournalMover``)
/// takes what the journal holds, in batches sorted by (taxi, time), into
/// `fixes` (keeping a fix stored already as it was: a terminal's resend
/// after a lost ACK) and `latest_fixes`, deleting it from the journal in
/// the same transaction. Readers ask the view `archived_fixes`, `fixes`
/// plus the journal's fixes that `fixes` lacks, in one snapshot: a fix
/// moving meanwhile is seen exactly once.
///
/// When the server is down, `append` throws at once (the pool backs off)
/// and the fixes get no ACK; the terminals resend them. Moves fail too and
/// are reported; the journal keeps the fixes until one succeeds.
public final class PostgresFixArchive: FixArchive, JournaledArchive {
    let pool: PostgresPool
    /// The days (since 1970) whose partition exists, so that a move asks only for new ones.
    private let knownDays = Mutex(Set<Int64>())
    private let mover: JournalMover
    /// The most fixes one move takes from the journal, so that a backlog
    /// (after a burst, or an outage of the mover) moves in transactions of
    /// a few seconds rather than one long one.
    private let rowsPerMove: Int

    /// The archive in `pool`'s database, whose schema must be migrated
    /// (``PostgresSchema/migrate(_:)``). `moveInterval` is how often the
    /// journal moves into `fixes` (on `upkeepClock`), at most `rowsPerMove` fixes at a time;
    /// `onMove` hears about every move, `onMoveFailure` about every failed
    /// one (with how many failed in a row).
    public init(
        pool: PostgresPool, moveInterval: Duration = .milliseconds(200), upkeepClock: any ServiceClock = SystemClock(),
        rowsPerMove: Int = 100_000,
        onMove: @escaping @Sendable (JournalMoveReport) -> Void = { _ in },
        onMoveFailure: @escaping @Sendable (_ error: any Error, _ inARow: Int) -> Void = { _, _ in }
    ) {
        self.pool = pool
        self.rowsPerMove = max(1, rowsPerMove)
        // The server's backend does the moving, out of reach of the mover thread's nice value:
        // resting three times as long as a move took leaves the commits three quarters of a core.
        mover = JournalMover(
            interval: moveInterval, restFactor: 3, clock: upkeepClock, report: onMove, reportFailure: onMoveFailure)
        mover.start(archive: self)
    }

    deinit {
        mover.stop()
    }

    /// Why the background mover's last move failed, while moves keep
    /// failing (nil once one succeeds), for `/healthz`.
    public var moveFailure: String? { mover.failure }

    /// Columns of a fix in the COPY stream, the journal and the staging table.
    private static let columns = "taxi_id, time, device_id, protocol, lon, lat, speed_kmh, heading, zone_id, received_at"

    /// The columns read back, times as epoch milliseconds.
    static let selectColumns = """
        taxi_id, (extract(epoch FROM time) * 1000)::int8 AS time_ms, device_id, protocol, lon, lat, speed_kmh, heading,
        zone_id, (extract(epoch FROM received_at) * 1000)::int8 AS received_ms
        """

    public func append(_ fixes: [AcceptedFix]) throws(StorageError) {
        guard !fixes.isEmpty else { return }
        do {
            try pool.withConnection { connection in
                try connection.copyIn("COPY fix_journal (\(Self.columns)) FROM STDIN (FORMAT binary)", data: Self.copyStream(fixes))
            }
        } catch let error as StorageError {
            throw error
        } catch {
            throw .writeFailed(reason: "\(error)")
        }
    }

    /// Moves everything journaled so far into `fixes` now, as the
    /// background mover does every interval: for tools and tests that need
    /// the indexed table current.
    public func moveJournalToStore() throws {
        try mover.moveNow(archive: self)
    }

    package func moveJournalOnce() throws -> JournalMoveReport? {
        let started = ContinuousClock.now
        let moved: (stored: Int, days: Set<Int64>)?
        do {
            moved = try move(atMost: rowsPerMove)
        } catch {
            // Perhaps another instance's retention dropped a partition this one still counts on.
            knownDays.withLock { $0.removeAll() }
            throw error
        }
        guard let moved else { return nil }
        knownDays.withLock { $0.formUnion(moved.days) }
        return JournalMoveReport(storedFixes: moved.stored, duration: ContinuousClock.now - started)
    }

    /// One move of at most `rows` journaled fixes in one transaction, with
    /// the day partitions they need that were not known yet; nil when the
    /// journal is empty or another instance is moving it.
    private func move(atMost rows: Int) throws -> (stored: Int, days: Set<Int64>)? {
        try pool.withConnection { connection in
            // An idle service looks five times a second: one statement, not a transaction of five.
            guard try connection.query("SELECT EXISTS (SELECT 1 FROM fix_journal) AS pending").boolean(0, "pending") else {
                return nil
            }
            return try connection.transaction { connection in
                // Another instance of the service on the same database moves the journal now.
                guard try connection.query("SELECT pg_try_advisory_xact_lock(7166) AS locked").boolean(0, "locked") else {
                    return nil
                }
                // Losing this commit in a crash loses nothing: the rows are back in the journal.
                try connection.query("SET LOCAL synchronous_commit = off")
                try Self.createBatchTable(on: connection)
                let taken = try connection.query("""
                    WITH moved AS (
                        DELETE FROM fix_journal WHERE ctid = ANY (ARRAY(SELECT ctid FROM fix_journal LIMIT $1))
                        RETURNING \(Self.columns))
                    INSERT INTO fix_batch (\(Self.columns)) SELECT \(Self.columns) FROM moved
                    """, [.integer(Int64(rows))]).affected
                guard taken > 0 else { return nil }
                let days = try Self.days(inBatchOn: connection)
                let missing = knownDays.withLock { days.subtracting($0) }
                if !missing.isEmpty { try Self.createPartitions(days: missing, on: connection) }
                return (try Self.moveBatch(on: connection), missing)
            }
        }
    }

    /// The UTC days (since 1970) of the fixes in the staging table.
    private static func days(inBatchOn connection: PostgresConnection) throws -> Set<Int64> {
        let rows = try connection.query("SELECT DISTINCT floor(extract(epoch FROM time) / 86400)::int8 AS day FROM fix_batch")
        return Set(try (0..<rows.count).map { try rows.integer($0, "day") })
    }

    /// Stages `fixes` by binary COPY and moves them into the archive, in the caller's transaction.
    static func copy(_ fixes: [AcceptedFix], on connection: PostgresConnection) throws {
        try createBatchTable(on: connection)
        try connection.copyIn("COPY fix_batch (\(Self.columns)) FROM STDIN (FORMAT binary)", data: Self.copyStream(fixes))
        try Self.moveBatch(on: connection)
    }

    /// The connection's staging table, emptied at every commit.
    static func createBatchTable(on connection: PostgresConnection) throws {
        try connection.execute("""
            CREATE TEMPORARY TABLE IF NOT EXISTS fix_batch (
                taxi_id text COLLATE "C", time timestamptz, device_id text COLLATE "C", protocol text,
                lon float8, lat float8, speed_kmh float8, heading float8, zone_id text COLLATE "C",
                received_at timestamptz) ON COMMIT DELETE ROWS
            """)
    }

    /// `append` with the batch written by multi-row INSERT statements (1,000
    /// rows each, ten parameters a row) in one transaction instead of COPY:
    /// what the archive benchmark compares COPY with.
    package func appendByInsert(_ fixes: [AcceptedFix]) throws {
        guard !fixes.isEmpty else { return }
        try pool.withConnection { connection in
            try connection.transaction { connection in
                for start in stride(from: 0, to: fixes.count, by: 1_000) {
                    let rows = fixes[start..<min(start + 1_000, fixes.count)]
                    try connection.query(
                        "INSERT INTO fix_journal (\(Self.columns)) VALUES "
                            + (0..<rows.count).map(Self.placeholders).joined(separator: ", "),
                        rows.flatMap(Self.parameters))
                }
            }
        }
    }

    /// A fix as the ten parameters of a row of `fix_journal`, in ``columns`` order (times in milliseconds).
    private static func parameters(_ fix: AcceptedFix) -> [PostgresValue] {
        [
            .text(fix.taxiId.text), .integer(fix.time.storedMilliseconds), .text(fix.deviceId), .text(fix.wireProtocol.rawValue),
            .double(fix.coordinate.longitude), .double(fix.coordinate.latitude), .double(fix.speedKmh), .double(fix.heading),
            .optional(fix.zoneId?.text), .integer(fix.receivedAt.storedMilliseconds),
        ]
    }

    /// The VALUES tuple of row `row` of a multi-row INSERT (parameters from `row * 10 + 1`).
    private static func placeholders(row: Int) -> String {
        let p = (1...10).map { "$\(row * 10 + $0)" }
        return "(\(p[0]), to_timestamp(\(p[1])::int8 / 1000.0), \(p[2]), \(p[3]), \(p[4])::float8, \(p[5])::float8, "
            + "\(p[6])::float8, \(p[7])::float8, \(p[8]), to_timestamp(\(p[9])::int8 / 1000.0))"
    }

    /// Moves the staged batch into `fixes`, sorted by (taxi, time) so that
    /// the primary key's pages are written a few times each rather than once
    /// a fix (a fix stored already is kept as it was, and of a fix staged
    /// twice the first received), and the newest fix of each taxi into
    /// `latest_fixes`; returns how many fixes `fixes` gained.
    @discardableResult
    static func moveBatch(on connection: PostgresConnection) throws -> Int {
        let stored = try connection.query("""
            INSERT INTO fixes (\(columns)) SELECT \(columns) FROM fix_batch
            ORDER BY taxi_id, time, device_id, received_at ON CONFLICT DO NOTHING
            """).affected
        try connection.query("""
            INSERT INTO latest_fixes (\(columns))
            SELECT DISTINCT ON (taxi_id) \(columns) FROM fix_batch ORDER BY taxi_id, time DESC
            ON CONFLICT (taxi_id) DO UPDATE SET
                time = excluded.time, device_id = excluded.device_id, protocol = excluded.protocol,
                lon = excluded.lon, lat = excluded.lat, speed_kmh = excluded.speed_kmh, heading = excluded.heading,
                zone_id = excluded.zone_id, received_at = excluded.received_at
            WHERE excluded.time > latest_fixes.time
            """)
        return stored
    }

    /// `fixes` as a binary COPY stream.
    static func copyStream(_ fixes: [AcceptedFix]) -> [UInt8] {
        var writer = BinaryCopyWriter()
        for fix in fixes {
            writer.startRow(fields: 10)
            writer.text(fix.taxiId.text)
            writer.timestamp(milliseconds: fix.time.storedMilliseconds)
            writer.text(fix.deviceId)
            writer.text(fix.wireProtocol.rawValue)
            writer.double(fix.coordinate.longitude)
            writer.double(fix.coordinate.latitude)
            writer.double(fix.speedKmh)
            writer.double(fix.heading)
            writer.text(fix.zoneId?.text)
            writer.timestamp(milliseconds: fix.receivedAt.storedMilliseconds)
        }
        writer.finish()
        return writer.bytes
    }

    /// Creates the partitions of `days` (UTC days since 1970) that do not
    /// exist yet, in the caller's transaction, under an advisory lock that
    /// keeps two writers from racing.
    static func createPartitions(days: Set<Int64>, on connection: PostgresConnection) throws {
        try connection.query("SELECT pg_advisory_xact_lock(7165)")
        for day in days.sorted() {
            let start = day * 86_400_000
            try connection.query(
                "SELECT mytaxi_fix_partition($1::int8, $2::int8)", [.integer(start), .integer(start + 86_400_000)])
        }
    }

    /// Forgets that the partition of `day` exists (retention dropped it).
    func forgetPartition(day: Int64) {
        _ = knownDays.withLock { $0.remove(day) }
    }

    /// The UTC day of `date`, in days since 1970.
    static func day(of date: Date) -> Int64 {
        let milliseconds = date.storedMilliseconds
        return milliseconds >= 0 ? milliseconds / 86_400_000 : (milliseconds + 1) / 86_400_000 - 1
    }

    public func fixes(of taxi: TaxiID, in window: ClosedRange<Date>, limit: Int) async throws(StorageError) -> [AcceptedFix] {
        let parameters: [PostgresValue] = [
            .text(taxi.text), .integer(window.lowerBound.storedMilliseconds), .integer(window.upperBound.storedMilliseconds),
            .integer(Int64(max(0, limit))),
        ]
        return try await pool.run({ .readFailed(reason: $0) }) { connection in
            try Self.fixes(connection.query("""
                SELECT \(Self.selectColumns) FROM archived_fixes
                WHERE taxi_id = $1 AND time BETWEEN to_timestamp($2::int8 / 1000.0) AND to_timestamp($3::int8 / 1000.0)
                ORDER BY time, device_id LIMIT $4
                """, parameters))
        }
    }

    public func latestFixPerTaxi() async throws(StorageError) -> [AcceptedFix] {
        try await pool.run({ .readFailed(reason: $0) }) { connection in
            // The journal's newest fix of a taxi replaces the stored one only when newer, as a move would.
            try Self.fixes(connection.query("""
                SELECT \(Self.selectColumns) FROM (
                    SELECT DISTINCT ON (taxi_id) * FROM (
                        SELECT \(Self.columns), 0 AS source FROM latest_fixes
                        UNION ALL SELECT \(Self.columns), 1 AS source FROM fix_journal) AS candidates
                    ORDER BY taxi_id, time DESC, source) AS latest
                ORDER BY taxi_id
                """))
        }
    }

    public func count() async throws(StorageError) -> Int {
        try await pool.run({ .readFailed(reason: $0) }) { connection in
            Int(try connection.query("SELECT count(*) AS n FROM archived_fixes").integer(0, "n"))
        }
    }

    /// The fixes of `rows` (read with ``selectColumns``).
    static func fixes(_ rows: PostgresRows) throws -> [AcceptedFix] {
        try (0..<rows.count).map { row in
            let protocolName = try rows.string(row, "protocol")
            guard let wireProtocol = WireProtocol(rawValue: protocolName) else {
                throw PostgresError(message: "unknown wire protocol \(protocolName) in the archive")
            }
            return AcceptedFix(
                taxiId: TaxiID(try rows.string(row, "taxi_id")), deviceId: try rows.string(row, "device_id"),
                wireProtocol: wireProtocol, time: Date(storedMilliseconds: try rows.integer(row, "time_ms")),
                coordinate: Coordinate(longitude: try rows.double(row, "lon"), latitude: try rows.double(row, "lat")),
                speedKmh: try rows.double(row, "speed_kmh"), heading: try rows.double(row, "heading"),
                zoneId: try rows.text(row, "zone_id").map { ZoneID($0) },
                receivedAt: Date(storedMilliseconds: try rows.integer(row, "received_ms")))
        }
    }
}
