import Storage
import GRDB

/// One step of retention in the SQLite store (`fixes.sqlite`): deletes a
/// bounded number of one segment's fixes taken before the cutoff, in the
/// segment's key order (taxi, time, device), in the caller's transaction.
///
/// A compacted hour segment can hold over a million fixes; deleting it in
/// one transaction held the store's writer, and so the journal mover, for
/// seconds. Step after step, each a transaction of its own, the mover gets
/// the store between two steps. The segment's row in `segments` keeps its
/// time range until the last step (so a reader still looks in the segment
/// for whatever it holds), and only its row count follows each step.
enum RetentionStep {
    /// A fix's place in a segment's key order: where the next step starts.
    struct Key: Sendable {
        var taxi: String
        var milliseconds: Int64
        var device: String
    }

    /// What one step did.
    struct Outcome {
        /// Rows deleted.
        var deletedRows: Int
        /// The last key deleted, when the segment may hold more fixes
        /// before the cutoff after it; nil when this was the last step.
        var lastKey: Key?
    }

    /// Deletes at most `maximumRows` of `segment`'s fixes taken before
    /// `cutoff` (milliseconds) that come after `after` in key order (nil:
    /// from the first). The last step, the one that finds no more than
    /// `maximumRows` such fixes, also drops the segment's `segments` row
    /// when the segment is left empty and is not the open (highest) one, or
    /// else narrows its range to the oldest fix left.
    static func delete(segment: Int64, before cutoff: Int64, after: Key?, maximumRows: Int, in db: Database) throws -> Outcome {
        let older = "segment = ? AND time_ms < ?" + (after == nil ? "" : " AND (taxi_id, time_ms, device_id) > (?, ?, ?)")
        var olderValues: [any DatabaseValueConvertible] = [segment, cutoff]
        if let after { olderValues += [after.taxi, after.milliseconds, after.device] }
        let boundary = try Row.fetchOne(
            db,
            sql: "SELECT taxi_id, time_ms, device_id FROM fixes WHERE \(older) ORDER BY taxi_id, time_ms, device_id LIMIT 1 OFFSET ?",
            arguments: StatementArguments(olderValues + [max(maximumRows, 1) - 1]))
        guard let boundary else {
            try db.execute(sql: "DELETE FROM fixes WHERE \(older)", arguments: StatementArguments(olderValues))
            let deleted = db.changesCount
            try finish(segment: segment, deleted: deleted, cutoff: cutoff, in: db)
            return Outcome(deletedRows: deleted, lastKey: nil)
        }
        let last = Key(taxi: boundary["taxi_id"], milliseconds: boundary["time_ms"], device: boundary["device_id"])
        try db.execute(
            sql: "DELETE FROM fixes WHERE \(older) AND (taxi_id, time_ms, device_id) <= (?, ?, ?)",
            arguments: StatementArguments(olderValues + [last.taxi, last.milliseconds, last.device]))
        let deleted = db.changesCount
        try db.execute(sql: "UPDATE segments SET rows = max(rows - ?, 0) WHERE segment = ?", arguments: [deleted, segment])
        return Outcome(deletedRows: deleted, lastKey: last)
    }

    /// Drops `segment`'s row when it is empty and closed; else counts off
    /// the `deleted` rows and starts its range at its oldest fix (at
    /// `cutoff` for an open segment left empty).
    private static func finish(segment: Int64, deleted: Int, cutoff: Int64, in db: Database) throws {
        let open = try Int64.fetchOne(db, sql: "SELECT max(segment) FROM segments") == segment
        let empty = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM fixes WHERE segment = ?)", arguments: [segment]) == false
        if empty && !open {
            try db.execute(sql: "DELETE FROM segments WHERE segment = ?", arguments: [segment])
            return
        }
        try db.execute(
            sql: """
                UPDATE segments SET rows = max(rows - ?2, 0),
                    min_time_ms = coalesce((SELECT min(time_ms) FROM fixes WHERE segment = ?1), ?3)
                WHERE segment = ?1
                """,
            arguments: [segment, deleted, cutoff])
    }
}
