import DispatchCore
import DispatchRuntime
import FixRecords
import Fleet
import Foundation
import GeoKit
import Routing
import ServiceClock
import Storage
import Synchronization
import Testing
import Zones

/// Positions a test moves, noting each taxi moved as the fleet index does.
final class MovablePositions: TaxiPositions, MovingTaxis {
    private let state = Mutex<(positions: [TaxiID: Coordinate], moved: [TaxiID])>(([:], []))

    func position(of taxi: TaxiID) -> Coordinate? { state.withLock { $0.positions[taxi] } }

    /// Puts `taxi` at `coordinate`.
    func move(_ taxi: TaxiID, to coordinate: Coordinate) {
        state.withLock { state in
            state.positions[taxi] = coordinate
            if !state.moved.contains(taxi) { state.moved.append(taxi) }
        }
    }

    func takeMoved() -> [(taxi: TaxiID, coordinate: Coordinate)] {
        state.withLock { state in
            defer { state.moved.removeAll() }
            return state.moved.compactMap { taxi in state.positions[taxi].map { (taxi, $0) } }
        }
    }
}

/// The router's ETAs on the fleet's positions, each position snapped once.
@Suite(.timeLimit(.minutes(20))) struct RouterPickupETAsTests {
    static let grandCentral = Coordinate(longitude: -73.9772, latitude: 40.7527)
    static let timesSquare = Coordinate(longitude: -73.9855, latitude: 40.7580)
    static let unionSquare = Coordinate(longitude: -73.9900, latitude: 40.7370)

    static func router() throws -> RoadRouter {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let extract = try OSMExtract(contentsOf: root.appendingPathComponent("Maps/manhattan-midtown.osm.pbf").path)
        return RoadRouter(graph: GraphBuilder.build(extract, profile: CarProfile()).graph, timeZone: TimeZone(identifier: "America/New_York")!)
    }

    @Test func etasAreTheRoutersAndFollowATaxiThatMoved() throws {
        let router = try Self.router()
        let positions = MovablePositions()
        positions.move("A", to: Self.timesSquare)
        positions.move("B", to: Self.unionSquare)
        let etas = RouterPickupETAs(router: router, fleet: positions)
        let depart = Date(timeIntervalSince1970: 1_795_438_800)
        let expected = try router.table(from: [Self.timesSquare, Self.unionSquare], to: Self.grandCentral, depart: depart)
        let first = etas.etas(from: ["A", "B", "C"], to: Self.grandCentral, depart: depart)
        #expect(first.count == 3 && first[2] == nil, "C has no position")
        #expect(first[0] == expected[0].map { .milliseconds(Int64(($0.durationSeconds * 1000).rounded())) })
        #expect(first[1] == expected[1].map { .milliseconds(Int64(($0.durationSeconds * 1000).rounded())) })
        #expect(etas.etas(from: ["A", "B"], to: Self.grandCentral, depart: depart) == Array(first.prefix(2)), "the same answer from the snapped places")
        positions.move("A", to: Self.unionSquare)
        #expect(etas.eta(from: "A", to: Self.grandCentral, depart: depart) == first[1], "A was snapped again where it moved")
    }

    /// SPEC D4 against brute force: 300 free taxis at random road nodes in
    /// 20 zones, and for each of 10 pickups the nearest zones the dispatcher
    /// ranks from its one many-to-one table are those a route per taxi gives:
    /// each zone's best taxi by driving time, zones by that time.
    @Test func theNearestZonesAreThoseARoutePerTaxiGives() async throws {
        let router = try Self.router()
        var random = SplitMix64(state: 14)
        let nodes = router.graph.coordinates
        let taxis = (0..<300).map { TaxiID("T\($0)") }
        let zoneOf = Dictionary(uniqueKeysWithValues: taxis.enumerated().map { ($1, ZoneID("Z\($0 % 20)")) })
        let positions = MovablePositions()
        for taxi in taxis { positions.move(taxi, to: nodes[Int(random.next() % UInt64(nodes.count))]) }
        let clock = ManualClock(now: Date(timeIntervalSince1970: 1_795_438_800))
        let dispatcher = try await Dispatcher(
            log: InMemoryDispatchLog(), clock: clock, etas: RouterPickupETAs(router: router, fleet: positions))
        for taxi in taxis {
            try await dispatcher.record(.fleet(.appeared(taxi, zone: zoneOf[taxi], at: clock.now)))
            try await dispatcher.record(.login(taxi))
            try await dispatcher.record(.setAvailable(taxi))
        }
        try await dispatcher.execute(.tick)
        for _ in 0..<10 {
            let pickup = nodes[Int(random.next() % UInt64(nodes.count))]
            var best: [ZoneID: (eta: Int64, taxi: TaxiID)] = [:]
            for taxi in taxis {
                guard let position = positions.position(of: taxi), let zone = zoneOf[taxi],
                      let route = try? router.route(from: position, to: pickup, depart: clock.now) else { continue }
                let eta = Int64((route.durationSeconds * 1000).rounded())
                if let current = best[zone], (current.eta, current.taxi) <= (eta, taxi) { continue }
                best[zone] = (eta, taxi)
            }
            let expected = best.sorted { ($0.value.eta, $0.key) < ($1.value.eta, $1.key) }.prefix(5)
            let ranked = await dispatcher.nearestZonesWithFreeTaxis(to: pickup, limit: 5)
            #expect(ranked.map(\.zone) == expected.map(\.key), "pickup \(pickup)")
            #expect(ranked.map(\.taxi) == expected.map(\.value.taxi), "pickup \(pickup)")
            #expect(ranked.map { $0.eta / .milliseconds(1) } == expected.map { Double($0.value.eta) }, "pickup \(pickup)")
        }
        dispatcher.close()
    }
}
