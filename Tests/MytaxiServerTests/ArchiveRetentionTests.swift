import CoreMetrics
import FixRecords
import Foundation
import GeoKit
import Logging
import MetricsTestKit
import ServiceClock
import Storage
import TestSupport
import Testing
@testable import MytaxiServer

/// The archive stays within its retention: the fixes older than it are
/// deleted at start and then every hour of the service clock, never the
/// newer ones; with no retention nothing is deleted.
@Suite(.timeLimit(.minutes(20))) struct ArchiveRetentionTests {
    /// How long a wait may take: the service's task is only scheduled, and
    /// in the parallel pass on two busy cores it may wait minutes for a
    /// thread (60 s was seen to be too short); the suite's limit still bounds it.
    static let patience: Duration = .seconds(900)

    static let day: TimeInterval = 86_400
    static let now = Date(timeIntervalSince1970: 1_790_000_000)

    /// A fix of `taxi` received `minute` minutes from ``now``.
    static func fix(_ taxi: String, minute: Double, lat: Double) -> AcceptedFix {
        AcceptedFix(
            taxiId: TaxiID(taxi), deviceId: "dev-\(taxi)", wireProtocol: .line, time: now.addingTimeInterval(minute * 60),
            coordinate: Coordinate(longitude: -73.95, latitude: lat), speedKmh: 30, heading: 0, zoneId: nil,
            receivedAt: now.addingTimeInterval(minute * 60))
    }

    @Test func fixesOlderThanTheRetentionGoAtStartAndEachHourAfter() async throws {
        let clock = ManualClock(now: Self.now)
        let archive = InMemoryFixArchive()
        try archive.append([
            Self.fix("T1", minute: -(91 * 24 * 60), lat: 40.75),
            Self.fix("T1", minute: -(90 * 24 * 60 - 30), lat: 40.75),
            Self.fix("T1", minute: -1, lat: 40.75),
        ])
        let retention = ArchiveRetention(
            archive: archive, retention: 90 * Self.day, clock: clock, logger: Logger(label: "test"), metrics: TestMetrics())
        let service = Task { try await PeriodicService(retention, clock: clock).run() }
        defer { service.cancel() }
        try await waitUntil("the fix 91 days old deleted at start", within: Self.patience) { try await archive.count() } satisfies: { $0 == 2 }
        for _ in 0..<59 {
            try await waitUntil("a minute's pause", within: Self.patience) { clock.sleeperCount == 1 }
            clock.advance(by: .seconds(60))
        }
        try await waitUntil("the last pause of the hour", within: Self.patience) { clock.sleeperCount == 1 }
        #expect(try await archive.count() == 2, "the fix half an hour short of 90 days old at start stays until the hour's run")
        clock.advance(by: .seconds(60))
        try await waitUntil("the hour's run deletes the fix now past 90 days", within: Self.patience) { try await archive.count() } satisfies: { $0 == 1 }
    }

    @Test func withoutARetentionNothingIsDeleted() async throws {
        let clock = ManualClock(now: Self.now)
        let archive = InMemoryFixArchive()
        try archive.append([Self.fix("T1", minute: -(400 * 24 * 60), lat: 40.75)])
        let metrics = TestMetrics()
        let retention = ArchiveRetention(archive: archive, retention: nil, clock: clock, logger: Logger(label: "test"), metrics: metrics)
        let service = Task { try await PeriodicService(retention, clock: clock).run() }
        defer { service.cancel() }
        try await waitUntil("the archive's size measured", within: Self.patience) { try metrics.expectGauge("mytaxi_archive_bytes").lastValue } satisfies: { $0 != nil }
        #expect(try await archive.count() == 1)
    }
}
