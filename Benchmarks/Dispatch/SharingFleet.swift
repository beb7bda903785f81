import DispatchCore
import DispatchRuntime
import FixRecords
import Foundation
import GeoKit
import Routing

/// Shared rides on the shipped demo map (Midtown Manhattan): 2,000 taxis at
/// random road nodes, two in three carrying one or two riders with their
/// itineraries planned by the same insertion, and 100 requests of 1 to 3 km,
/// for the matching of a shared request (SPEC D10): the 30 taxis nearest the
/// pickup as the candidates, one router table, an insertion into each.
final class SharingFleet: @unchecked Sendable {
    static let candidates = 30
    private let matcher: SharedRideMatcher
    private let taxis: [SharingCandidate]
    private let requests: [(pickup: Coordinate, dropoff: Coordinate, direct: Duration)]
    private var next = 0
    private let rules = SharingRules()

    init(taxis count: Int) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let graph = GraphBuilder.build(
            try OSMExtract(contentsOf: root.appendingPathComponent("Maps/manhattan-midtown.osm.pbf").path), profile: CarProfile()).graph
        let router = RoadRouter(graph: graph, timeZone: TimeZone(identifier: "America/New_York") ?? .gmt)
        let depart = Date()
        var random = SplitMix64(state: 2026)
        let nodes = graph.coordinates
        func node() -> Coordinate { nodes[Int(random.next() % UInt64(nodes.count))] }
        func drive(_ from: Coordinate, _ to: Coordinate) -> Duration? {
            (try? router.route(from: from, to: to, depart: depart)).map { .seconds($0.durationSeconds) }
        }
        func trip() -> (pickup: Coordinate, dropoff: Coordinate, direct: Duration) {
            while true {
                let (pickup, dropoff) = (node(), node())
                guard (1_000...3_000).contains(pickup.haversineDistance(to: dropoff)), let direct = drive(pickup, dropoff) else { continue }
                return (pickup, dropoff, direct)
            }
        }
        var taxis: [SharingCandidate] = []
        for number in 0..<count {
            var places = [node()]
            var taxi = ItineraryInsertion.Taxi(place: 0, capacity: 4, stops: [], riders: [:])
            for ride in 0..<Int(random.next() % 3) {
                let rider = trip()
                let shared = SharedRider(
                    ride: RideRequestID(number * 10 + ride), seats: 1, requestedAt: .seconds(-Int(random.next() % 120)),
                    direct: rider.direct, rules: rules)
                let known = places + [rider.pickup, rider.dropoff]
                guard let joined = ItineraryInsertion.cheapest(
                    of: shared, pickup: known.count - 2, dropoff: known.count - 1, into: taxi, now: .zero,
                    travel: { drive(known[$0], known[$1]) })
                else { continue }
                places = known
                taxi.stops = joined.stops
                taxi.riders[shared.ride] = shared
            }
            var legs: [Duration] = []
            var here = places[0]
            for stop in taxi.stops {
                legs.append(drive(here, places[stop.place]) ?? .zero)
                here = places[stop.place]
            }
            taxis.append(SharingCandidate(
                taxi: TaxiID("T\(number)"), position: places[0], capacity: 4,
                itinerary: zip(taxi.stops, legs).map { stop, leg in (stop.ride, stop.kind, places[stop.place], leg) }, riders: taxi.riders))
        }
        self.taxis = taxis
        requests = (0..<100).map { _ in trip() }
        matcher = SharedRideMatcher(router: router)
    }

    /// The next of the 100 requests matched: the taxi that takes it, nil when none can.
    func matchNext() throws -> TaxiID? {
        defer { next = (next + 1) % requests.count }
        let request = requests[next]
        let nearest = taxis.map { ($0, $0.places[0].haversineDistance(to: request.pickup)) }
            .sorted { $0.1 < $1.1 }.prefix(Self.candidates).map(\.0)
        let rider = SharedRider(ride: RideRequestID(1_000_000 + next), seats: 1, requestedAt: .zero, direct: request.direct, rules: rules)
        return try matcher.best(for: rider, pickup: request.pickup, dropoff: request.dropoff, among: nearest, now: .zero, depart: Date())?.taxi
    }
}
