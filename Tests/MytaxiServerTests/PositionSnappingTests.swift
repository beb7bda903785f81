import DispatchRuntime
import FixRecords
import Fleet
import Foundation
import GeoKit
import Routing
import ServiceClock
import Testing
@testable import MytaxiServer

/// The snapping service of `mytaxi serve` runs the snapper's step on the
/// injected clock: a taxi's new position is snapped within one interval,
/// with no query asking for it.
@Suite(.timeLimit(.minutes(20))) struct PositionSnappingTests {
    @Test func aTaxiThatMovedIsSnappedWithinOneInterval() async throws {
        let start = Date(timeIntervalSince1970: 1_790_000_000)
        let clock = ManualClock(now: start)
        let graph = SyntheticCity.grid(columns: 20, rows: 20)
        let fleet = FleetIndex()
        let snapped = SnappedPositions()
        let snapper = PositionSnapper(router: RoadRouter(graph: graph, timeZone: .gmt), fleet: fleet, snapped: snapped)
        let service = Task { try await PeriodicService(PositionSnapping(snapper: snapper), clock: clock).run() }
        defer { service.cancel() }
        while clock.sleeperCount == 0 { await Task.yield() }
        let corner = graph.coordinates[42]
        fleet.update(
            TaxiPosition(taxiId: "T1", coordinate: corner, time: start, speedKmh: 0, heading: 0, zoneId: nil), heardAt: start)
        #expect(snapped.entry(of: "T1") == nil, "ingest does not snap")
        clock.advance(by: .milliseconds(200))
        for _ in 0..<100_000 where snapped.entry(of: "T1") == nil { await Task.yield() }
        #expect(snapped.entry(of: "T1")?.coordinate == corner)
        #expect(snapped.entry(of: "T1")?.isOnRoads == true)
    }
}
