import Storage
import GRDB

/// Merges the store's closed segments into one segment per UTC hour of
/// fix time, so that a query for one taxi's day seeks in about 24 segments
/// instead of the hundreds the mover leaves behind (at 10,000 taxis
/// reporting every 30 s, a 50,000-row segment holds 2.5 minutes).
///
/// The mover numbers its segments 0, 1, 2, ... and appends to the highest;
/// an hour's compacted segment is numbered below zero (``segment(ofHour:)``),
/// so it is never the open segment, and retention, which deletes segments
/// by their time range, treats it as any other closed segment.
///
/// One ``step(closedBefore:maximumRows:in:)`` is one transaction: it copies
/// the rows of a few closed segments into their hours' segments, deletes
/// those segments' rows and their `segments` rows, and records the hours'
/// ranges. A reader (a WAL snapshot) sees either the old segments or the
/// new ones, never both and never neither, and a crash rolls the whole step
/// back. A fix resent after a lost ACK, stored in two segments, becomes one
/// row: the hour's segment is keyed by (taxi, time, device) like any other.
enum SegmentCompaction {
    /// Milliseconds in an hour: a compacted segment's span of fix time.
    static let hourMilliseconds: Int64 = 3_600_000

    /// The segment number of the compacted segment of the UTC hour `hour`
    /// (`time_ms / hourMilliseconds`, as SQLite divides): below zero, so
    /// below every segment the mover makes.
    static func segment(ofHour hour: Int64) -> Int64 {
        -1 - hour
    }

    /// What one step did.
    struct Step {
        /// Mover segments merged and deleted.
        var sourceSegments: Int
        /// Rows read from them.
        var sourceRows: Int
        /// Rows written into hour segments (fewer than `sourceRows` by the
        /// resent fixes found twice).
        var storedRows: Int
        /// Hour segments written to.
        var hours: Int
    }

    /// Compacts the oldest closed segments whose newest fix is older than
    /// `horizon` (milliseconds): those whose oldest fix falls in the same
    /// hour as the oldest such segment's, in order, until `maximumRows`
    /// rows (at least one segment). Runs in `db`'s current transaction;
    /// returns nil when no segment qualifies. The open (highest) segment is
    /// never taken, nor one already compacted.
    static func step(closedBefore horizon: Int64, maximumRows: Int, in db: Database) throws -> Step? {
        guard let open = try Int64.fetchOne(db, sql: "SELECT max(segment) FROM segments") else { return nil }
        let candidates = try Row.fetchAll(
            db,
            sql: """
                SELECT segment, min_time_ms, rows FROM segments
                WHERE segment >= 0 AND segment < ? AND max_time_ms < ?
                ORDER BY min_time_ms, segment
                """,
            arguments: [open, horizon])
        guard let first = candidates.first else { return nil }
        let firstOldest: Int64 = first["min_time_ms"]
        let firstHourEnd = (firstOldest / hourMilliseconds + 1) * hourMilliseconds
        var sources: [Int64] = []
        var sourceRows = 0
        for candidate in candidates {
            let rows: Int = candidate["rows"]
            let oldest: Int64 = candidate["min_time_ms"]
            guard oldest < firstHourEnd, sources.isEmpty || sourceRows + rows <= maximumRows else { break }
            sources.append(candidate["segment"])
            sourceRows += rows
        }
        let inSources = "segment IN (\(databaseQuestionMarks(count: sources.count)))"
        let sourceArguments = StatementArguments(sources)
        let hours = try Row.fetchAll(
            db,
            sql: """
                SELECT time_ms / \(hourMilliseconds) AS hour, min(time_ms) AS oldest, max(time_ms) AS newest
                FROM fixes WHERE \(inSources) GROUP BY hour
                """,
            arguments: sourceArguments)
        var storedRows = 0
        for hourRow in hours {
            let hour: Int64 = hourRow["hour"]
            storedRows += try copy(
                hour: hour, oldest: hourRow["oldest"], newest: hourRow["newest"], from: inSources, sources, in: db)
        }
        try db.execute(sql: "DELETE FROM fixes WHERE \(inSources)", arguments: sourceArguments)
        try db.execute(sql: "DELETE FROM segments WHERE \(inSources)", arguments: sourceArguments)
        return Step(sourceSegments: sources.count, sourceRows: sourceRows, storedRows: storedRows, hours: hours.count)
    }

    /// Copies the source rows taken in `hour` into its segment, sorted by
    /// its key (so a new hour segment is written page after page), skipping
    /// a fix it holds already, and widens its `segments` row; returns the
    /// rows it added.
    private static func copy(
        hour: Int64, oldest: Int64, newest: Int64, from inSources: String, _ sources: [Int64], in db: Database
    ) throws -> Int {
        let target = segment(ofHour: hour)
        try db.execute(
            sql: """
                INSERT OR IGNORE INTO fixes (segment, \(FixStore.columns))
                SELECT ?, \(FixStore.columns) FROM fixes
                WHERE \(inSources) AND time_ms / \(hourMilliseconds) = ?
                ORDER BY taxi_id, time_ms, device_id
                """,
            arguments: StatementArguments([target] + sources + [hour]))
        let inserted = db.changesCount
        try db.execute(
            sql: """
                INSERT INTO segments (segment, min_time_ms, max_time_ms, rows) VALUES (?, ?, ?, ?)
                ON CONFLICT (segment) DO UPDATE SET
                    min_time_ms = min(min_time_ms, excluded.min_time_ms),
                    max_time_ms = max(max_time_ms, excluded.max_time_ms),
                    rows = rows + excluded.rows
                """,
            arguments: [target, oldest, newest, inserted])
        return inserted
    }
}
