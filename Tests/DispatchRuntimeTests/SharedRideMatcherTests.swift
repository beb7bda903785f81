import DispatchCore
import DispatchRuntime
import FixRecords
import Foundation
import GeoKit
import Routing
import Testing

/// A shared request matched among taxis on a grid of streets (SPEC D10):
/// the taxi already going that way takes it, at the times the router gives,
/// and none when every rider's bounds would break.
@Suite(.timeLimit(.minutes(20))) struct SharedRideMatcherTests {
    static let graph = SyntheticCity.grid(columns: 20, rows: 20)
    static let router = RoadRouter(graph: graph, timeZone: .gmt)
    static let rules = SharingRules()
    static let depart = Date(timeIntervalSince1970: 1_790_000_000)

    /// The intersection of `column` and `row`.
    static func corner(_ column: Int, _ row: Int) -> Coordinate { graph.coordinates[row * 20 + column] }

    static func drive(_ from: Coordinate, _ to: Coordinate) throws -> Duration {
        .seconds(try router.route(from: from, to: to, depart: depart).durationSeconds)
    }

    /// A taxi at `position` carrying rider `ride` (aboard since zero) to `destination`.
    static func carrying(_ taxi: TaxiID, from position: Coordinate, to destination: Coordinate, ride: Int) throws -> SharingCandidate {
        let leg = try drive(position, destination)
        return SharingCandidate(
            taxi: taxi, position: position, capacity: 4, itinerary: [(RideRequestID(ride), .dropoff, destination, leg)],
            riders: [RideRequestID(ride): SharedRider(ride: RideRequestID(ride), seats: 1, requestedAt: .zero, direct: leg, rules: rules,
                                                      pickedUpAt: .zero)])
    }

    @Test func theTaxiGoingThatWayTakesTheRiderAtTheRoutersTimes() throws {
        let east = try Self.carrying("EAST", from: Self.corner(0, 10), to: Self.corner(19, 10), ride: 1)
        let north = try Self.carrying("NORTH", from: Self.corner(5, 0), to: Self.corner(5, 19), ride: 2)
        let (pickup, dropoff) = (Self.corner(4, 10), Self.corner(15, 10))
        let direct = try Self.drive(pickup, dropoff)
        let rider = SharedRider(ride: RideRequestID(3), seats: 1, requestedAt: .zero, direct: direct, rules: Self.rules)
        let match = try #require(try SharedRideMatcher(router: Self.router).best(
            for: rider, pickup: pickup, dropoff: dropoff, among: [north, east], now: .zero, depart: Self.depart))
        #expect(match.taxi == "EAST")
        #expect(match.insertion.stops.map(\.ride) == [RideRequestID(3), RideRequestID(3), RideRequestID(1)], "picked up and dropped on the way")
        let toPickup = try Self.drive(Self.corner(0, 10), pickup)
        #expect(abs((match.insertion.pickupAt - toPickup) / .seconds(1)) < 1, "the pickup at the router's time")
        #expect(abs((match.insertion.dropoffAt - match.insertion.pickupAt - direct) / .seconds(1)) < 1, "then the direct trip")
        #expect(match.insertion.addedDriving < .seconds(60), "on the way: hardly any more driving")
    }

    @Test func noTaxiTakesARiderItCannotReachInTime() throws {
        // An empty taxi: only the new rider's wait can stop it.
        let east = SharingCandidate(taxi: "EAST", position: Self.corner(0, 10), capacity: 4, itinerary: [], riders: [:])
        let (pickup, dropoff) = (Self.corner(0, 0), Self.corner(0, 19))
        let direct = try Self.drive(pickup, dropoff)
        let toPickup = try Self.drive(Self.corner(0, 10), pickup)
        // Asked so long ago that the longest wait ends before the taxi could be there.
        let late = SharedRider(ride: RideRequestID(3), seats: 1, requestedAt: toPickup - Self.rules.maximumWait - .seconds(5), direct: direct,
                               rules: Self.rules)
        let matcher = SharedRideMatcher(router: Self.router)
        #expect(try matcher.best(for: late, pickup: pickup, dropoff: dropoff, among: [east], now: .zero, depart: Self.depart) == nil)
        let inTime = SharedRider(ride: RideRequestID(3), seats: 1, requestedAt: toPickup - Self.rules.maximumWait + .seconds(5),
                                 direct: direct, rules: Self.rules)
        #expect(try matcher.best(for: inTime, pickup: pickup, dropoff: dropoff, among: [east], now: .zero, depart: Self.depart)?.taxi == "EAST",
                "five seconds more and it is in time")
        #expect(try matcher.best(for: inTime, pickup: pickup, dropoff: dropoff, among: [], now: .zero, depart: Self.depart) == nil)
    }
}
