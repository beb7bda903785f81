import CoreMetrics
import FixRecords
import Foundation
import Logging
import ServiceClock
import Storage

/// Keeps the fix archive within its retention (`--fix-retention-days`), so
/// that the disk does not fill: once at start and then every hour, it
/// deletes the fixes taken longer ago than the retention; every minute it
/// publishes the bytes the archive holds (`mytaxi_archive_bytes`). With no
/// retention it only measures. A failed run is logged and tried again at
/// the next hour; ingest goes on meanwhile.
struct ArchiveRetention: PeriodicWork {
    let archive: any FixArchive
    /// How long fixes are kept; nil keeps them all.
    let retention: TimeInterval?
    let clock: any ServiceClock
    let logger: Logger
    /// The archive's size, as `storedBytes()` last found it.
    private let storedBytes: Gauge
    /// Fixes deleted because they were older than the retention.
    private let deletedFixes: Counter

    init(archive: any FixArchive, retention: TimeInterval?, clock: any ServiceClock, logger: Logger, metrics: any MetricsFactory) {
        self.archive = archive
        self.retention = retention
        self.clock = clock
        self.logger = logger
        storedBytes = Gauge(label: "mytaxi_archive_bytes", dimensions: [], factory: metrics)
        deletedFixes = Counter(label: "mytaxi_archive_fixes_deleted_total", dimensions: [], factory: metrics)
    }

    /// Minutes between two retention runs.
    static let minutesBetweenRuns = 60
    /// A round a minute: the size is measured every round.
    let interval: Duration = .seconds(60)
    /// The rounds done so far.
    private var minute = 0

    mutating func round() async {
        if minute % Self.minutesBetweenRuns == 0, let retention { await deleteOlder(than: retention) }
        await measure()
        minute += 1
    }

    private func deleteOlder(than retention: TimeInterval) async {
        let cutoff = clock.now.addingTimeInterval(-retention)
        do {
            let deleted = try await archive.deleteFixes(takenBefore: cutoff)
            deletedFixes.increment(by: deleted)
            if deleted > 0 { logger.info("archive retention: deleted \(deleted) fixes taken before \(FixTime.iso8601(cutoff))") }
        } catch {
            logger.warning("archive retention: could not delete old fixes now (will try again in an hour): \(error)")
        }
    }

    private func measure() async {
        do {
            storedBytes.record(try await archive.storedBytes())
        } catch {
            logger.debug("archive size unknown now: \(error)")
        }
    }
}
