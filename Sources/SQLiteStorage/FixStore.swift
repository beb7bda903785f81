import Storage
import GRDB

/// The archive's queryable store (`fixes.sqlite`): fixes in segments of
/// consecutive moves, each segment keyed by (taxi, time, device).
///
/// Why segments: a move brings about one fix per active taxi. In one
/// B-tree keyed by taxi, those fixes land on as many leaf pages as there
/// are taxis once the table is large, so every move rewrote thousands of
/// pages and got slower as the archive grew. Keyed by (segment, taxi,
/// time, device), a move only writes into the newest segment, whose size is
/// bounded (`defaultSegmentRows`), so its cost stays flat however large the
/// archive gets. A query for one taxi's window seeks once per segment whose
/// time range overlaps the window; `segments` records each range.
///
/// `latest` keeps the newest fix of every taxi in the closed segments, so a
/// restart rebuilds the live fleet index from one row per taxi plus the
/// open segment instead of scanning every fix.
///
/// A fix resent after a lost ACK can land in two segments; reads return it
/// once.
///
/// Closed segments are merged later into one segment per hour of fix time
/// (``SegmentCompaction``), numbered below zero, so that a day's query
/// seeks in a few dozen segments rather than hundreds.
public enum FixStore {
    /// Rows after which the mover starts a new segment, unless told
    /// otherwise. Smaller segments make moves cheaper at high rates; larger
    /// ones mean fewer seeks per query.
    public static let defaultSegmentRows = 50_000

    /// The archive's fix columns, in the journal's and the store's order.
    static let columns = "taxi_id, time_ms, device_id, protocol, lon, lat, speed_kmh, heading, zone_id, received_ms"

    /// The column definitions of a fix, shared by the journal's tables and the store's.
    static let fixColumnsSchema = """
        taxi_id TEXT NOT NULL, time_ms INTEGER NOT NULL, device_id TEXT NOT NULL, protocol TEXT NOT NULL,
        lon REAL NOT NULL, lat REAL NOT NULL, speed_kmh REAL NOT NULL, heading REAL NOT NULL,
        zone_id TEXT, received_ms INTEGER NOT NULL
        """

    private static let schema = """
        CREATE TABLE IF NOT EXISTS fixes (
            segment INTEGER NOT NULL, \(fixColumnsSchema),
            PRIMARY KEY (segment, taxi_id, time_ms, device_id)
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS segments (
            segment INTEGER PRIMARY KEY, min_time_ms INTEGER NOT NULL, max_time_ms INTEGER NOT NULL,
            rows INTEGER NOT NULL
        );
        CREATE TABLE IF NOT EXISTS latest (\(fixColumnsSchema), PRIMARY KEY (taxi_id)) WITHOUT ROWID;
        """

    /// Creates the tables, converting a store written before segments
    /// existed (one `fixes` table keyed by taxi) into segment 0.
    static func prepare(_ db: Database) throws {
        guard try db.tableExists("fixes"), try !db.columns(in: "fixes").contains(where: { $0.name == "segment" }) else {
            try db.execute(sql: schema)
            return
        }
        try db.execute(sql: "ALTER TABLE fixes RENAME TO fixes_unsegmented")
        try db.execute(sql: schema)
        try db.execute(sql: "INSERT INTO fixes (segment, \(columns)) SELECT 0, \(columns) FROM fixes_unsegmented")
        try db.execute(
            sql: """
                INSERT INTO segments (segment, min_time_ms, max_time_ms, rows)
                SELECT 0, min(time_ms), max(time_ms), count(*) FROM fixes_unsegmented HAVING count(*) > 0
                """)
        try db.execute(sql: "DROP TABLE fixes_unsegmented")
    }

    /// Copies every row of `source` (a table another schema may hold, e.g.
    /// `journal.journal_alt`) into the open (newest) segment, first closing
    /// it when it holds `segmentRows`, and keeps `segments` up to date; runs
    /// in `db`'s current transaction. Returns how many fixes were new to
    /// the segment.
    static func insert(from source: String, segmentRows: Int, in db: Database) throws -> Int {
        let newest = try Row.fetchOne(db, sql: "SELECT segment, rows FROM segments ORDER BY segment DESC LIMIT 1")
        var segment: Int64 = newest?["segment"] ?? 0
        if let rows: Int = newest?["rows"], rows >= segmentRows {
            try close(segment, in: db)
            segment += 1
        }
        try db.execute(
            sql: """
                INSERT OR IGNORE INTO fixes (segment, \(columns))
                SELECT ?, \(columns) FROM \(source) ORDER BY taxi_id, time_ms
                """,
            arguments: [segment])
        let inserted = db.changesCount
        guard inserted > 0 else { return 0 }
        try db.execute(
            sql: """
                INSERT INTO segments (segment, min_time_ms, max_time_ms, rows)
                SELECT ?, min(time_ms), max(time_ms), ? FROM \(source) WHERE true
                ON CONFLICT (segment) DO UPDATE SET
                    min_time_ms = min(min_time_ms, excluded.min_time_ms),
                    max_time_ms = max(max_time_ms, excluded.max_time_ms),
                    rows = rows + excluded.rows
                """,
            arguments: [segment, inserted])
        return inserted
    }

    /// Folds the newest fix of each taxi in `segment`, which takes no more
    /// rows, into `latest`: once per segment rather than once per move,
    /// where it cost as much as the move itself.
    private static func close(_ segment: Int64, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO latest (\(columns)) \(newestPerTaxi(in: "fixes", where: "segment = ?"))
                ON CONFLICT (taxi_id) DO UPDATE SET
                    time_ms = excluded.time_ms, device_id = excluded.device_id, protocol = excluded.protocol,
                    lon = excluded.lon, lat = excluded.lat, speed_kmh = excluded.speed_kmh,
                    heading = excluded.heading, zone_id = excluded.zone_id, received_ms = excluded.received_ms
                WHERE excluded.time_ms > latest.time_ms
                """,
            arguments: [segment])
    }

    /// A SELECT of the newest row of each taxi in the rows of `table` that
    /// meet `condition` (SQLite takes the other columns from the row holding
    /// max(time_ms)).
    static func newestPerTaxi(in table: String, where condition: String = "true") -> String {
        """
        SELECT taxi_id, max(time_ms) AS time_ms, device_id, protocol, lon, lat,
               speed_kmh, heading, zone_id, received_ms
        FROM \(table) WHERE \(condition) GROUP BY taxi_id
        """
    }

    /// The fixes of one taxi in a time window, each (time, device) once,
    /// oldest first; arguments: taxi id, window start and end (ms), limit.
    static let fixesOfTaxiInWindow = """
        SELECT \(columns) FROM fixes
        WHERE segment IN (SELECT segment FROM segments WHERE min_time_ms <= ?3 AND max_time_ms >= ?2)
          AND taxi_id = ?1 AND time_ms BETWEEN ?2 AND ?3
        GROUP BY time_ms, device_id ORDER BY time_ms, device_id LIMIT ?4
        """

    /// The newest fix of every taxi: the closed segments' from `latest`,
    /// then the open segment's (a taxi may be in both; the newer one counts).
    static let latestPerTaxi = """
        SELECT \(columns) FROM latest
        UNION ALL
        \(newestPerTaxi(in: "fixes", where: "segment = (SELECT max(segment) FROM segments)"))
        """

    /// How many distinct fixes the store holds.
    static let distinctFixCount = "SELECT count(*) FROM (SELECT DISTINCT taxi_id, time_ms, device_id FROM fixes)"
}
