import FixRecords
import Fleet
import Foundation
import GeoKit
import ServiceClock
import Testing
import Zones
@testable import MytaxiServer

/// The sweep runs on the injected clock: a test moves time instead of
/// waiting 90 s for a taxi to go stale.
@Suite(.timeLimit(.minutes(20))) struct StalenessSweepTests {
    @Test func aSilentTaxiIsReportedStaleOnceTheClockPassesTheLimit() async throws {
        let start = Date(timeIntervalSince1970: 1_790_000_000)
        let clock = ManualClock(now: start)
        let fleet = FleetIndex(staleAfter: 90)
        fleet.update(
            TaxiPosition(taxiId: "T1", coordinate: Coordinate(longitude: 7.42, latitude: 43.73), time: start, speedKmh: 0,
                         heading: 0, zoneId: "1"),
            heardAt: start)
        let sweep = Task { try await PeriodicService(StalenessSweep(fleet: fleet, clock: clock), clock: clock).run() }
        defer { sweep.cancel() }
        var events = fleet.events.makeAsyncIterator()
        #expect(await events.next() == .appeared("T1", zone: "1", at: start))
        for _ in 0..<91 {
            while clock.sleeperCount == 0 { await Task.yield() }
            clock.advance(by: .seconds(1))
        }
        #expect(await events.next() == .wentStale("T1", lastHeard: start))
    }
}
