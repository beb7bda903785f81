import DispatchService
import FixRecords
import Fleet
import Foundation
import GeoKit
import Routing
import Testing

/// Taxis are snapped to the roads when their fix arrives, by the snapper's
/// step (which the service runs a few times a second), not at query time.
@Suite struct PositionSnapperTests {
    static let router = try! RouterPickupETAsTests.router()
    static let start = Date(timeIntervalSince1970: 1_795_438_800)
    /// In the Hudson, far from every road.
    static let offTheRoads = Coordinate(longitude: -74.03, latitude: 40.76)

    static func fix(_ taxi: TaxiID, at coordinate: Coordinate, second: Double) -> TaxiPosition {
        TaxiPosition(taxiId: taxi, coordinate: coordinate, time: start.addingTimeInterval(second), speedKmh: 20,
                     heading: 0, zoneId: nil)
    }

    @Test func aTaxiThatMovedIsSnappedByTheStepWithoutAQuery() throws {
        let fleet = FleetIndex()
        let snapped = SnappedPositions()
        let snapper = PositionSnapper(router: Self.router, fleet: fleet, snapped: snapped)
        fleet.update(Self.fix("A", at: RouterPickupETAsTests.timesSquare, second: 0), heardAt: Self.start)
        #expect(snapped.entry(of: "A") == nil, "ingest does not snap")
        #expect(snapper.step() == 1)
        let entry = try #require(snapped.entry(of: "A"))
        #expect(entry.coordinate == RouterPickupETAsTests.timesSquare)
        #expect(entry.place?.coordinate == RouterPickupETAsTests.timesSquare)
        fleet.update(Self.fix("A", at: RouterPickupETAsTests.unionSquare, second: 5), heardAt: Self.start.addingTimeInterval(5))
        #expect(snapper.step() == 1)
        #expect(snapped.entry(of: "A")?.place?.coordinate == RouterPickupETAsTests.unionSquare)
    }

    @Test func aTaxiThatDidNotMoveIsNotSnappedAgain() {
        let fleet = FleetIndex()
        let snapper = PositionSnapper(router: Self.router, fleet: fleet, snapped: SnappedPositions())
        fleet.update(Self.fix("A", at: RouterPickupETAsTests.timesSquare, second: 0), heardAt: Self.start)
        fleet.update(Self.fix("B", at: RouterPickupETAsTests.unionSquare, second: 0), heardAt: Self.start)
        #expect(snapper.step() == 2)
        #expect(snapper.step() == 0, "nobody moved")
        fleet.update(Self.fix("B", at: RouterPickupETAsTests.unionSquare, second: -5), heardAt: Self.start)
        #expect(snapper.step() == 0, "an older fix moves nobody")
        fleet.update(Self.fix("B", at: RouterPickupETAsTests.grandCentral, second: 10), heardAt: Self.start)
        #expect(snapper.step() == 1, "only B moved")
    }

    @Test func aPositionOffTheRoadsGetsNoPlace() throws {
        let fleet = FleetIndex()
        let snapped = SnappedPositions()
        let snapper = PositionSnapper(router: Self.router, fleet: fleet, snapped: snapped)
        fleet.update(Self.fix("A", at: Self.offTheRoads, second: 0), heardAt: Self.start)
        #expect(snapper.step() == 1)
        let entry = try #require(snapped.entry(of: "A"))
        #expect(entry.coordinate == Self.offTheRoads)
        #expect(entry.place == nil)
    }

    /// The ETAs read the places the step snapped, and a query's own step
    /// snaps a position that arrived after it: both equal the router's table.
    @Test func etasFromSnappedPlacesEqualTheRoutersTable() throws {
        let fleet = FleetIndex()
        let snapped = SnappedPositions()
        let snapper = PositionSnapper(router: Self.router, fleet: fleet, snapped: snapped)
        let etas = RouterPickupETAs(snapper: snapper)
        fleet.update(Self.fix("A", at: RouterPickupETAsTests.timesSquare, second: 0), heardAt: Self.start)
        snapper.step()
        fleet.update(Self.fix("B", at: RouterPickupETAsTests.unionSquare, second: 0), heardAt: Self.start)
        let expected = try Self.router.table(
            from: [RouterPickupETAsTests.timesSquare, RouterPickupETAsTests.unionSquare], to: RouterPickupETAsTests.grandCentral,
            depart: Self.start)
        let found = etas.etas(from: ["A", "B"], to: RouterPickupETAsTests.grandCentral, depart: Self.start)
        #expect(found[0] == expected[0].map { .milliseconds(Int64(($0.durationSeconds * 1000).rounded())) })
        #expect(found[1] == expected[1].map { .milliseconds(Int64(($0.durationSeconds * 1000).rounded())) })
        #expect(snapped.entry(of: "B")?.coordinate == RouterPickupETAsTests.unionSquare, "the query published what it snapped")
        #expect(snapper.step() == 0, "B's position is snapped already")
    }
}
