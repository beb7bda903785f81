import CoreMetrics
import Foundation
import Logging
import SQLiteStorage
import ServiceClock
import ServiceLifecycle
import Storage

/// Merges the SQLite archive's closed segments into hour segments in the
/// background (`--compact-after-hours`), so that one taxi's one-day query
/// seeks in about 24 segments rather than about 576 at 10,000 taxis.
///
/// A service of its own rather than part of the journal mover: the mover
/// runs ten times a second on the ACK path's heels and must stay short,
/// while a compaction step copies up to 200,000 fixes. The two share
/// the store's one writer: each step is one transaction, and between steps
/// the service pauses (``pauseBetweenSteps``) so that the mover, queued
/// behind the step, moves what the journal gathered meanwhile. Ingest
/// itself never waits: commits go to the journal, a file of its own.
///
/// Every minute (``interval``) it compacts what has become old enough,
/// step after step until nothing is left, and publishes the number of
/// segments before the first step and after each one (a first pass over a
/// large archive takes minutes). A failed step is logged and tried again
/// at the next pass. A graceful shutdown ends its sleep at once; a step
/// cut short by a stop or a crash is rolled back whole, and taken again at
/// the next start.
/// PostgreSQL needs none of this (its day partitions are the unit already).
struct ArchiveCompactionService: Service {
    let archive: SQLiteFixArchive
    /// How old the newest fix of a closed segment must be before it is compacted.
    let compactAfter: TimeInterval
    let clock: any ServiceClock
    let logger: Logger
    /// How long it sleeps after a pass before looking again.
    let interval: Duration
    /// Segments in the store.
    private let segments: Gauge
    /// Compaction steps done.
    private let compactions: Counter
    /// Fixes copied into hour segments.
    private let compactedFixes: Counter
    /// How long each step's transaction took.
    private let stepDuration: CoreMetrics.Timer

    /// Compacts `archive`'s closed segments once their newest fix is
    /// `compactAfter` seconds old, looking again `interval` after each pass
    /// (a minute in `serve`; tests pass less), on `clock`; publishes to `metrics`.
    init(
        archive: SQLiteFixArchive, compactAfter: TimeInterval, clock: any ServiceClock, logger: Logger, metrics: any MetricsFactory,
        interval: Duration = .seconds(60)
    ) {
        self.archive = archive
        self.compactAfter = compactAfter
        self.clock = clock
        self.logger = logger
        self.interval = interval
        segments = Gauge(label: "mytaxi_archive_segments", dimensions: [], factory: metrics)
        compactions = Counter(label: "mytaxi_archive_compactions_total", dimensions: [], factory: metrics)
        compactedFixes = Counter(label: "mytaxi_archive_compacted_fixes_total", dimensions: [], factory: metrics)
        stepDuration = CoreMetrics.Timer(label: "mytaxi_archive_compaction_seconds", dimensions: [], factory: metrics)
    }

    /// The pause between two steps: a few of the mover's 100 ms intervals.
    static let pauseBetweenSteps: Duration = .milliseconds(500)

    func run() async throws {
        try? await cancelWhenGracefulShutdown { [self] in
            while !Task.isCancelled {
                await measure()
                try await compactWhatIsOldEnough()
                try await clock.sleep(for: interval)
            }
        }
    }

    /// Steps until no segment qualifies, a step fails, or the service stops.
    private func compactWhatIsOldEnough() async throws {
        var total = 0
        var steps = 0
        while !Task.isCancelled {
            let report: SQLiteFixArchive.CompactionReport?
            do {
                report = try await archive.compactOldestSegments(closedBefore: clock.now.addingTimeInterval(-compactAfter))
            } catch {
                // A step the service's stop interrupted is rolled back and taken again at the next start.
                if !Task.isCancelled { logger.warning("archive compaction: a step failed (will try again after \(interval)): \(error)") }
                break
            }
            guard let report else { break }
            compactions.increment()
            compactedFixes.increment(by: report.fixesStored)
            stepDuration.recordNanoseconds(report.duration.nanoseconds)
            await measure()
            total += report.mergedSegments
            steps += 1
            try await clock.sleep(for: Self.pauseBetweenSteps)
        }
        if steps > 0 { logger.info("archive compaction: merged \(total) segments into hour segments in \(steps) steps") }
    }

    private func measure() async {
        do {
            segments.record(try await archive.segmentCount())
        } catch {
            logger.debug("archive segments unknown now: \(error)")
        }
    }
}

private extension Duration {
    /// The duration in whole nanoseconds.
    var nanoseconds: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }
}
