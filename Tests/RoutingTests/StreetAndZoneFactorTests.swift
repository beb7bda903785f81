import Foundation
import GeoKit
import Testing
@testable import Routing

/// Zone, narrow-street and minor-signal factors change travel times, and routes follow them.
@Suite(.timeLimit(.minutes(20))) struct StreetAndZoneFactorTests {
    /// From a to c: the straight street a-b-c (100 m, one lane each way, in
    /// the northern zone) or the avenue detour a-d-e-c (200 m, three lanes
    /// each way, outside every zone).
    static func map() throws -> (map: TinyMap, graph: RoadGraph, zones: EdgeZones) {
        var map = TinyMap("""
            a b c
            d . e
            """)
        map.way("abc", ["highway": "residential", "lanes": "2"])
        map.way("adec", ["highway": "residential", "lanes": "6"])
        let graph = try map.build().graph
        let north = map.positions["a"]!.latitude
        let zones = EdgeZones(graph: graph, zoneIDs: ["north"]) { abs($0.latitude - north) < 1e-9 ? 0 : nil }
        return (map, graph, zones)
    }

    static func route(_ profile: SpeedProfile, on setup: (map: TinyMap, graph: RoadGraph, zones: EdgeZones)) throws -> Route {
        let router = RoadRouter(graph: setup.graph, speeds: ProfiledEdgeSpeeds(graph: setup.graph, profile: profile, zones: setup.zones),
                            timeZone: .gmt)
        return try router.route(from: setup.map.positions["a"]!, to: setup.map.positions["c"]!,
                                depart: Date(timeIntervalSince1970: 0))
    }

    @Test func edgesKnowTheirLaneClassAndZone() throws {
        let setup = try Self.map()
        let tails = setup.graph.edgeTails()
        for edge in 0..<setup.graph.edgeCount {
            let onStreet = setup.graph.coordinates[Int(tails[edge])].latitude == setup.map.positions["a"]!.latitude
                && setup.graph.coordinates[Int(setup.graph.edgeHead[edge])].latitude == setup.map.positions["a"]!.latitude
            #expect(setup.graph.edgeLaneClass[edge] == (onStreet ? .narrow : .wide))
            #expect(setup.zones.zoneID(ofEdge: edge) == (onStreet ? "north" : nil))
        }
    }

    /// Free flow takes the street; narrow streets at 40 % of their class's
    /// speed make it cost 250 m worth, so the route takes the avenues.
    @Test func theNarrowStreetFactorSlowsNarrowStreetsAndRoutesAvoidThem() throws {
        let setup = try Self.map()
        let free = try Self.route(SpeedProfile(), on: setup)
        #expect(abs(free.distanceMetres - 100) < 1)

        var slowNarrow = SpeedProfile()
        for hour in 0..<SpeedProfile.hoursPerWeek { slowNarrow.setLaneFactor(0.4, for: .narrow, hourOfWeek: hour) }
        let detour = try Self.route(slowNarrow, on: setup)
        #expect(abs(detour.distanceMetres - 200) < 1, "the route leaves the narrow street")
        #expect(abs(detour.durationSeconds - 2 * free.durationSeconds) < 0.01)

        var mildlySlow = SpeedProfile()
        for hour in 0..<SpeedProfile.hoursPerWeek { mildlySlow.setLaneFactor(0.8, for: .narrow, hourOfWeek: hour) }
        let slower = try Self.route(mildlySlow, on: setup)
        #expect(abs(slower.distanceMetres - 100) < 1, "still the shorter way")
        #expect(abs(slower.durationSeconds - free.durationSeconds / 0.8) < 0.01)
    }

    /// A congested zone slows every road in it, and routes go around it.
    @Test func aZoneFactorSlowsTheZoneAndRoutesGoAround() throws {
        let setup = try Self.map()
        let free = try Self.route(SpeedProfile(), on: setup)
        var congested = SpeedProfile()
        for hour in 0..<SpeedProfile.hoursPerWeek { congested.setZoneFactor(0.8, for: "north", hourOfWeek: hour) }
        #expect(abs(try Self.route(congested, on: setup).durationSeconds - free.durationSeconds / 0.8) < 0.01)

        for hour in 0..<SpeedProfile.hoursPerWeek { congested.setZoneFactor(0.4, for: "north", hourOfWeek: hour) }
        let around = try Self.route(congested, on: setup)
        #expect(abs(around.distanceMetres - 200) < 1, "the route leaves the zone")

        let withoutZones = RoadRouter(graph: setup.graph, speeds: ProfiledEdgeSpeeds(graph: setup.graph, profile: congested),
                                  timeZone: .gmt)
        let ignored = try withoutZones.route(from: setup.map.positions["a"]!, to: setup.map.positions["c"]!,
                                             depart: Date(timeIntervalSince1970: 0))
        #expect(ignored == free, "a graph without zones ignores zone factors")
    }

    /// The driven edges of a route add up to its time.
    @Test func drivenEdgesAddUpToTheRoute() throws {
        let graph = TestGraphs.grid(10, 10, seed: 5)
        let router = RoadRouter(graph: graph, speeds: ProfiledEdgeSpeeds(graph: graph, profile: SpeedProfile()), timeZone: .gmt)
        var random = SplitMix64(state: 9)
        for _ in 0..<30 {
            func point() -> Coordinate {
                let a = graph.coordinates[Int(random.next() % UInt64(graph.nodeCount))]
                let b = graph.coordinates[Int(random.next() % UInt64(graph.nodeCount))]
                return Coordinate(longitude: (a.longitude * 3 + b.longitude) / 4, latitude: (a.latitude * 3 + b.latitude) / 4)
            }
            let (from, to) = (point(), point())
            let depart = Date(timeIntervalSince1970: 0)
            guard let route = try? router.route(from: from, to: to, depart: depart) else { continue }
            let driven = try router.drivenEdges(from: from, to: to, depart: depart)
            let seconds = driven.reduce(0) { $0 + Double(graph.edgeDurationMs[$1.edge]) * $1.share } / 1000
            #expect(abs(seconds - route.durationSeconds) < 0.01 * Double(driven.count) + 0.01, "\(seconds) vs \(route)")
        }
    }

    /// At a signal where a street meets an avenue, the street's approach is
    /// minor and the avenue's major; the profile's delay slows the street's
    /// approach only, and routes pay it.
    @Test func theMinorSignalDelayFallsOnSideStreetsAtAvenueSignals() throws {
        var map = TinyMap("""
            . a .
            c b d
            . e .
            """)
        map.way("abe", ["highway": "residential"])
        map.way("cbd", ["highway": "primary"])
        map.tagNode("b", ["highway": "traffic_signals"])
        let graph = try map.build().graph
        let tails = graph.edgeTails()
        func approach(_ from: Character, _ to: Character) -> SignalApproach? {
            (0..<graph.edgeCount).first {
                map.letter(at: graph.coordinates[Int(tails[$0])]) == from && map.letter(at: graph.coordinates[Int(graph.edgeHead[$0])]) == to
            }.map { graph.edgeSignalApproach[$0] }
        }
        #expect(approach("a", "b") == .minor && approach("e", "b") == .minor)
        #expect(approach("c", "b") == .major && approach("d", "b") == .major)
        #expect(approach("b", "e") == SignalApproach.none && approach("b", "d") == SignalApproach.none)

        var delayed = SpeedProfile()
        delayed.minorSignalDelaySeconds = 10
        #expect(try SpeedProfile(parsing: delayed.text) == delayed)
        let depart = Date(timeIntervalSince1970: 0)
        func seconds(_ profile: SpeedProfile, _ from: Character, _ to: Character) throws -> Double {
            try RoadRouter(graph: graph, speeds: ProfiledEdgeSpeeds(graph: graph, profile: profile), timeZone: .gmt)
                .route(from: map.positions[from]!, to: map.positions[to]!, depart: depart).durationSeconds
        }
        #expect(abs(try seconds(delayed, "a", "e") - seconds(SpeedProfile(), "a", "e") - 10) < 0.01)
        #expect(abs(try seconds(delayed, "c", "d") - seconds(SpeedProfile(), "c", "d")) < 0.01)
    }
}
