import FixRecords
import Foundation
import Storage
import GRDB

extension SQLiteFixArchive {
    /// Deletes the store's fixes taken before `cutoff` in write
    /// transactions of at most ``defaultCompactionStepRows`` rows each (see
    /// ``deleteFixes(takenBefore:rowsPerStep:)``).
    public func deleteFixes(takenBefore cutoff: Date) async throws(StorageError) -> Int {
        try await deleteFixes(takenBefore: cutoff, rowsPerStep: Self.defaultCompactionStepRows)
    }

    /// Deletes the store's fixes taken before `cutoff`, segment by segment,
    /// each in write transactions of at most `rowsPerStep` rows, so that the
    /// journal mover (the store's other writer) waits at most one step: a
    /// compacted hour can hold over a million fixes, and deleting it in one
    /// transaction held the writer for seconds. A segment's row in
    /// `segments` keeps its time range until its last step, which drops the
    /// row once the segment is empty (the newest, open segment always keeps
    /// it: it is where the mover appends) or else narrows the range to the
    /// fixes left. Between two steps a reader sees some of the segment's
    /// older fixes still there, never a newer one missing. The journal (a
    /// fraction of a second of fixes) is moved into the store first. When
    /// the calling task is cancelled (the service stopping), it stops after
    /// the current step and returns what it deleted; the next pass goes on.
    public func deleteFixes(takenBefore cutoff: Date, rowsPerStep: Int) async throws(StorageError) -> Int {
        let cutoffMilliseconds = Self.milliseconds(cutoff)
        do {
            try moveJournalToStore()
            let candidates = try await store.read { db in
                try Int64.fetchAll(
                    db, sql: "SELECT segment FROM segments WHERE min_time_ms < ? ORDER BY segment", arguments: [cutoffMilliseconds])
            }
            var deleted = 0
            for segment in candidates {
                var after: RetentionStep.Key?
                while !Task.isCancelled {
                    let step = try await store.write { [after] db in
                        try RetentionStep.delete(segment: segment, before: cutoffMilliseconds, after: after, maximumRows: rowsPerStep, in: db)
                    }
                    deleted += step.deletedRows
                    guard let last = step.lastKey else { break }
                    after = last
                }
            }
            guard !Task.isCancelled else { return deleted }
            try await store.write { db in
                try db.execute(sql: "DELETE FROM latest WHERE time_ms < ?", arguments: [cutoffMilliseconds])
            }
            return deleted
        } catch {
            throw .writeFailed(reason: "deleting fixes taken before \(FixTime.iso8601(cutoff)): \(error)")
        }
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
