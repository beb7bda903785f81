import FixRecords
import Foundation
import GeoKit
import Logging
import Prometheus
import SQLiteStorage
import ServiceClock
import ServiceLifecycle
import Storage
import TestSupport
import Testing
import Zones
@testable import MytaxiServer

/// The compaction service of `mytaxi serve`, run as `serve` runs it (in a
/// service group, on the system clock) against a real SQLite archive: it
/// compacts the closed old segments, again on a later pass, publishes the
/// segment count, and stops at once on a graceful shutdown.
@Suite(.timeLimit(.minutes(20)), .tags(.realTimeWaits)) struct ArchiveCompactionServiceTests {
    /// Three hours ago: old enough for a one-hour compaction horizon.
    let start = Date().addingTimeInterval(-3 * 3600)
    let registry = PrometheusCollectorRegistry()

    /// Runs `body` on a new archive of segments of 4 rows, in a directory removed afterwards.
    func withArchive(_ body: (SQLiteFixArchive) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mytaxi-compaction-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await body(try SQLiteFixArchive(directory: directory, moveInterval: .seconds(3600), segmentRows: 4))
    }

    /// Two taxis' fixes at `minutes` after ``start``, one move per minute,
    /// so that a segment closes every other minute.
    func append(minutes: Range<Int>, to archive: SQLiteFixArchive) throws {
        for minute in minutes {
            let time = start.addingTimeInterval(Double(minute * 60))
            try archive.append(["T1", "T2"].map { taxi in
                AcceptedFix(
                    taxiId: TaxiID(taxi), deviceId: "imei-\(taxi)", wireProtocol: .line, time: time,
                    coordinate: Coordinate(longitude: -73.98, latitude: 40.75), speedKmh: 20, heading: 90, zoneId: "161",
                    receivedAt: time)
            })
            try archive.moveJournalToStore()
        }
    }

    /// The service compacting fixes older than an hour, looking again
    /// every `interval`, running in a service group of its own.
    func run(on archive: SQLiteFixArchive, interval: Duration) -> (ServiceGroup, Task<Void, any Error>) {
        let service = ArchiveCompactionService(
            archive: archive, compactAfter: 3600, clock: SystemClock(), logger: Logger(label: "test"),
            metrics: PrometheusMetricsFactory(registry: registry), interval: interval)
        let group = ServiceGroup(services: [service], logger: Logger(label: "test"))
        return (group, Task { try await group.run() })
    }

    /// Waits until `archive` holds no more than `most` segments; returns how many it holds.
    func segments(of archive: SQLiteFixArchive, fallingTo most: Int) async throws -> Int {
        try await waitUntil("at most \(most) segments") { try await archive.segmentCount() } satisfies: { $0 <= most }
    }

    /// Waits until `/metrics` says the store holds `count` segments.
    func waitForPublished(segments count: Int) async throws {
        let line = "mytaxi_archive_segments \(Double(count))\n"
        try await waitUntil("\(line) in /metrics") { registry.emitToString() } satisfies: { $0.contains(line) }
    }

    @Test func itCompactsTheClosedOldSegmentsOnEveryPass() async throws {
        try await withArchive { archive in
            try append(minutes: 0..<20, to: archive)
            #expect(try await archive.segmentCount() >= 10)
            let (group, running) = run(on: archive, interval: .milliseconds(200))

            // 40 minutes of fixes meet two UTC hours at most: two hour segments and the open one.
            #expect(try await segments(of: archive, fallingTo: 3) <= 3, "the first pass compacts every closed segment")
            try append(minutes: 20..<40, to: archive)
            #expect(try await archive.segmentCount() > 3)
            let compacted = try await segments(of: archive, fallingTo: 3)
            #expect(compacted <= 3, "a later pass compacts the segments closed since")
            #expect(try await archive.count() == 80, "every fix is still there, once")
            try await waitForPublished(segments: compacted)

            await group.triggerGracefulShutdown()
            try await running.value
        }
    }

    /// The wait between two passes is cut short by a stop: with passes an
    /// hour apart, the service stops well within a minute.
    @Test func aGracefulShutdownEndsTheSleepBetweenPassesAtOnce() async throws {
        try await withArchive { archive in
            try append(minutes: 0..<1, to: archive)
            let (group, running) = run(on: archive, interval: .seconds(3600))
            // The first pass found only the open segment.
            try await waitForPublished(segments: 1)

            let asked = ContinuousClock.now
            await group.triggerGracefulShutdown()
            try await running.value
            #expect(ContinuousClock.now - asked < defaultPatience, "the stop does not wait out the hour")
        }
    }
}
