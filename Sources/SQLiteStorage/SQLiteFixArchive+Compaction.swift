import FixRecords
import Foundation
import Storage
import GRDB

extension SQLiteFixArchive {
    /// What one compaction step did (``compactOldestSegments(closedBefore:maximumRows:)``), for logs and metrics.
    public struct CompactionReport: Sendable, Equatable {
        /// Segments the mover wrote that were merged and deleted.
        public var mergedSegments: Int
        /// Fixes read from them.
        public var fixesRead: Int
        /// Fixes written into hour segments: fewer than ``fixesRead`` by the
        /// resent fixes that were stored twice.
        public var fixesStored: Int
        /// Hour segments written to.
        public var hours: Int
        /// How long the step's transaction took: the longest the journal
        /// mover (the store's other writer) may have waited for it.
        public var duration: Duration
    }

    /// Rows one compaction step reads at most, unless told otherwise: four
    /// of the mover's segments, 10 minutes of 10,000 taxis reporting every
    /// 30 s. Measured on 50 million fixes, a step of a whole hour (1.2
    /// million rows) held the store's writer 6.7 s (p50) and the mover
    /// waited as long; a step of 200,000 rows holds it 1.5 s, at the price
    /// of writing each hour's segment in six steps.
    public static let defaultCompactionStepRows = 200_000

    /// Merges the oldest closed segments whose every fix was taken before
    /// `horizon` into segments of one UTC hour each (``SegmentCompaction``),
    /// in one write transaction that reads at most `maximumRows` rows (or
    /// one segment, when that is larger); returns nil when no segment
    /// qualifies. Call it again for the next step: between two steps the
    /// journal mover gets the store. The journal and the open segment are
    /// never touched.
    public func compactOldestSegments(closedBefore horizon: Date, maximumRows: Int = SQLiteFixArchive.defaultCompactionStepRows)
        async throws(StorageError) -> CompactionReport?
    {
        let horizonMilliseconds = Self.milliseconds(horizon)
        do {
            return try await store.writeWithoutTransaction { db in
                let started = ContinuousClock.now
                var step: SegmentCompaction.Step?
                // Deferred, as the mover's: an immediate transaction would take the attached journal's write lock too.
                try db.inTransaction(.deferred) {
                    step = try SegmentCompaction.step(closedBefore: horizonMilliseconds, maximumRows: maximumRows, in: db)
                    return .commit
                }
                return step.map { step in
                    CompactionReport(
                        mergedSegments: step.sourceSegments, fixesRead: step.sourceRows, fixesStored: step.storedRows,
                        hours: step.hours, duration: ContinuousClock.now - started)
                }
            }
        } catch {
            throw .writeFailed(reason: "compacting the archive's segments: \(error)")
        }
    }

    /// How many segments the store has (the open one, those the mover
    /// closed, the compacted hours), for `/metrics`: a number that keeps
    /// growing means compaction is not keeping up.
    public func segmentCount() async throws(StorageError) -> Int {
        do {
            return try await store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM segments") ?? 0 }
        } catch {
            throw .readFailed(reason: "counting the archive's segments: \(error)")
        }
    }

    /// How many segments a query for one taxi's fixes in `window` seeks in:
    /// those whose time range overlaps it. For benchmarks and tests.
    public func segmentsOverlapping(_ window: ClosedRange<Date>) async throws(StorageError) -> Int {
        do {
            return try await store.read { db in
                try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM segments WHERE min_time_ms <= ? AND max_time_ms >= ?",
                    arguments: [Self.milliseconds(window.upperBound), Self.milliseconds(window.lowerBound)]) ?? 0
            }
        } catch {
            throw .readFailed(reason: "counting the archive's segments: \(error)")
        }
    }
}
