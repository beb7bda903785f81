import FixRecords
import Foundation
import GRDB

extension SQLiteFixArchive {
    /// Deletes the store's fixes taken before `cutoff`, one segment per
    /// write transaction, so that the journal mover (the store's other
    /// writer) waits at most one segment's delete. A segment wholly older
    /// goes with its row in `segments`; one that straddles `cutoff` keeps
    /// its newer fixes and its range shrinks; the newest (open) segment
    /// always keeps its row, which is where the mover appends. The journal
    /// (a fraction of a second of fixes) is moved into the store first.
    public func deleteFixes(takenBefore cutoff: Date) async throws(StorageError) -> Int {
        let cutoffMilliseconds = Self.milliseconds(cutoff)
        do {
            try moveJournalToStore()
            let candidates = try await store.read { db in
                try Row.fetchAll(
                    db, sql: "SELECT segment, max_time_ms FROM segments WHERE min_time_ms < ? ORDER BY segment",
                    arguments: [cutoffMilliseconds])
            }
            var deleted = 0
            for candidate in candidates {
                let segment: Int64 = candidate["segment"]
                let newest: Int64 = candidate["max_time_ms"]
                deleted += try await store.write { db in
                    try Self.delete(segment: segment, wholly: newest < cutoffMilliseconds, before: cutoffMilliseconds, in: db)
                }
            }
            try await store.write { db in
                try db.execute(sql: "DELETE FROM latest WHERE time_ms < ?", arguments: [cutoffMilliseconds])
            }
            return deleted
        } catch {
            throw .writeFailed(reason: "deleting fixes taken before \(FixTime.iso8601(cutoff)): \(error)")
        }
    }

    /// Deletes `segment`'s fixes taken before `cutoff` (all of them when
    /// `wholly`, and then its `segments` row unless it is the open one);
    /// returns how many rows went.
    private static func delete(segment: Int64, wholly: Bool, before cutoff: Int64, in db: Database) throws -> Int {
        let open = try Int64.fetchOne(db, sql: "SELECT max(segment) FROM segments") == segment
        if wholly && !open {
            try db.execute(sql: "DELETE FROM fixes WHERE segment = ?", arguments: [segment])
            let deleted = db.changesCount
            try db.execute(sql: "DELETE FROM segments WHERE segment = ?", arguments: [segment])
            return deleted
        }
        try db.execute(sql: "DELETE FROM fixes WHERE segment = ? AND time_ms < ?", arguments: [segment, cutoff])
        let deleted = db.changesCount
        try db.execute(
            sql: """
                UPDATE segments SET rows = max(rows - ?2, 0),
                    min_time_ms = coalesce((SELECT min(time_ms) FROM fixes WHERE segment = ?1), ?3)
                WHERE segment = ?1
                """,
            arguments: [segment, deleted, cutoff])
        return deleted
    }

    /// The archive's files on disk: the store and the journal with their
    /// write-ahead logs. Pages freed by retention are reused by later
    /// fixes rather than given back, so the figure levels off once
    /// retention runs rather than shrinking.
    public func storedBytes() async throws(StorageError) -> Int64 {
        let files = ["fixes.sqlite", "fixes.sqlite-wal", "fixes-journal.sqlite", "fixes-journal.sqlite-wal"]
        return files.reduce(0) { total, file in
            let attributes = try? FileManager.default.attributesOfItem(atPath: directory + "/" + file)
            return total + ((attributes?[.size] as? NSNumber)?.int64Value ?? 0)
        }
    }
}
