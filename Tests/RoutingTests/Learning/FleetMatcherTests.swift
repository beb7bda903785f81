import Foundation
import GeoKit
import Testing
@testable import Routing

/// Fixes matched to the roads: drives between them, and what is not one.
@Suite(.timeLimit(.minutes(20))) struct FleetMatcherTests {
    /// A two-way street a-e, 4 × 80 m, with a parallel one-way street f-j (eastward) 80 m south.
    static func setup() throws -> (map: TinyMap, router: RoadRouter) {
        var map = TinyMap("""
            a b c d e
            f g h i j
            """, cellMetres: 80)
        map.way("abcde", ["highway": "secondary"])
        map.way("fghij", ["highway": "secondary", "oneway": "yes"])
        map.way("af", ["highway": "secondary"])
        map.way("ej", ["highway": "secondary"])
        return (map, RoadRouter(graph: try map.build().graph, timeZone: .gmt))
    }

    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    /// A point `metres` north of `coordinate`.
    static func north(_ coordinate: Coordinate, _ metres: Double) -> Coordinate {
        Coordinate(longitude: coordinate.longitude, latitude: coordinate.latitude + metres / TinyMap.metresPerDegree)
    }

    @Test func aDriveAlongTheStreetIsMatchedToItsEdgesWithItsLengthAndTime() throws {
        let (map, router) = try Self.setup()
        let matcher = FleetMatcher(router: router)
        let first = matcher.match(taxi: "T1", at: Self.north(map.positions["b"]!, 8), time: Self.start)
        #expect(first == .unmatched(.first))
        let second = matcher.match(taxi: "T1", at: Self.north(map.positions["d"]!, -6), time: Self.start.addingTimeInterval(30))
        guard case .matched(let leg) = second else {
            Issue.record("expected a matched drive, got \(second)")
            return
        }
        #expect(abs(leg.metres - 160) < 5, "b to d is 160 m")
        #expect(leg.seconds == 30 && leg.departure == Self.start)
        let tails = router.snapper.edgeTail
        let driven = leg.edges.map { (router.graph.coordinates[Int(tails[$0.edge])], router.graph.coordinates[Int(router.graph.edgeHead[$0.edge])]) }
        #expect(driven.allSatisfy { $0.1.longitude > $0.0.longitude }, "every edge driven eastward, the way the taxi went")
        #expect(abs(leg.edges.reduce(0) { $0 + $1.share } - 2) < 0.05, "two edges' worth")
    }

    @Test func standingOffTheRoadsTooLongAGapAndAJumpTeachNothing() throws {
        let (map, router) = try Self.setup()
        let matcher = FleetMatcher(router: router)
        let b = map.positions["b"]!
        _ = matcher.match(taxi: "T1", at: b, time: Self.start)
        #expect(matcher.match(taxi: "T1", at: Self.north(b, 12), time: Self.start.addingTimeInterval(30)) == .unmatched(.standing))
        #expect(matcher.match(taxi: "T1", at: Self.north(b, 12), time: Self.start.addingTimeInterval(60), mayBeWaiting: false)
            != .unmatched(.standing), "a taxi on a ride that barely moves is in traffic")
        #expect(matcher.match(taxi: "T1", at: Self.north(b, 400), time: Self.start.addingTimeInterval(90)) == .unmatched(.offRoad))
        _ = matcher.match(taxi: "T2", at: b, time: Self.start)
        #expect(matcher.match(taxi: "T2", at: map.positions["d"]!, time: Self.start.addingTimeInterval(600)) == .unmatched(.gap))
        var slowCity = MapMatchSettings()
        slowCity.maxSpeedMetresPerSecond = 20
        let strict = FleetMatcher(router: router, settings: slowCity)
        _ = strict.match(taxi: "T3", at: map.positions["a"]!, time: Self.start)
        #expect(strict.match(taxi: "T3", at: map.positions["e"]!, time: Self.start.addingTimeInterval(10)) == .unmatched(.jump),
                "320 m in 10 s is 32 m/s, faster than any drive of a 20 m/s city")
    }

    @Test func aFixCloserToTheWrongStreetIsMatchedToTheOneTheDriveCanUse() throws {
        let (map, router) = try Self.setup()
        let matcher = FleetMatcher(router: router)
        // Driving west on a-e (f-j is one-way eastward); the second fix strays 45 m south, nearer f-j.
        _ = matcher.match(taxi: "T1", at: map.positions["d"]!, time: Self.start)
        let outcome = matcher.match(taxi: "T1", at: Self.north(map.positions["b"]!, -45), time: Self.start.addingTimeInterval(30))
        guard case .matched(let leg) = outcome else {
            Issue.record("expected a matched drive, got \(outcome)")
            return
        }
        let latitude = map.positions["a"]!.latitude
        #expect(leg.edges.allSatisfy { abs(router.graph.coordinates[Int(router.graph.edgeHead[$0.edge])].latitude - latitude) < 1e-6 },
                "the drive stays on a-e")
    }
}
