import Foundation
import GeoKit
import Testing
@testable import Routing

/// Each profile rule on a map drawn in the test, read from `.osm` XML and built.
@Suite(.timeLimit(.minutes(20))) struct GraphBuilderTests {
    /// A square block: a at the top left, b top right, c bottom left, d bottom right.
    static let block = """
        a . . b
        . . . .
        c . . d
        """
    static let residential = ["highway": "residential"]

    private func routes(_ map: TinyMap, _ pairs: [(Character, Character)],
                        profile: any RoutingProfile = CarProfile()) throws -> [String] {
        let graph = try map.build(profile).graph
        return pairs.map { TinyRoute(graph, on: map, from: $0.0, to: $0.1)?.letters ?? "none" }
    }

    @Test func onewayYesIsDrivenForwardOnly() throws {
        var map = TinyMap(Self.block)
        map.way("ab", ["highway": "residential", "oneway": "yes"])
        map.way("bdca", Self.residential)
        let found = try routes(map, [("a", "b"), ("b", "a")])
        #expect(found == ["ab", "bdca"])
    }

    @Test func onewayMinusOneIsDrivenBackwardOnly() throws {
        var map = TinyMap(Self.block)
        map.way("ab", ["highway": "residential", "oneway": "-1"])
        map.way("bdca", Self.residential)
        let found = try routes(map, [("a", "b"), ("b", "a")])
        #expect(found == ["acdb", "ba"])
    }

    @Test func roundaboutIsOneWayInDrawingOrder() throws {
        var map = TinyMap(Self.block)
        map.way("abdca", ["highway": "primary", "junction": "roundabout"])
        let found = try routes(map, [("a", "c"), ("c", "a")])
        #expect(found == ["abdc", "ca"])
    }

    @Test func privateAccessIsLeftOut() throws {
        var map = TinyMap(Self.block)
        map.way("ab", ["highway": "service", "access": "private"])
        map.way("bdca", Self.residential)
        let found = try routes(map, [("a", "b")])
        #expect(found == ["acdb"])
    }

    @Test func motorcarYesOverridesAccessNo() throws {
        var map = TinyMap(Self.block)
        map.way("ab", ["highway": "service", "access": "no", "motorcar": "yes"])
        map.way("bdca", Self.residential)
        let found = try routes(map, [("a", "b")])
        #expect(found == ["ab"])
    }

    @Test func maxspeedInMilesPerHourSetsTheDuration() throws {
        var map = TinyMap(Self.block, cellMetres: 100)
        map.way("ab", ["highway": "residential", "maxspeed": "20 mph"])
        map.way("bdca", Self.residential)
        let graph = try map.build().graph
        let route = try #require(TinyRoute(graph, on: map, from: "a", to: "b"))
        let metres = map.positions["a"]!.haversineDistance(to: map.positions["b"]!)
        let kmh = 20 * 1.609344 * CarProfile.maxspeedFactor
        #expect(abs(metres - 300) < 0.5)
        #expect(route.durationMs == Int((metres / (kmh / 3.6) * 1000).rounded()))
    }

    /// A is north of C; driving south from A, D is a left turn at C, B a right
    /// turn and E straight on. The E-F-D loop is the detour when the left turn
    /// is forbidden (shorter than a U-turn at E).
    static let junction = """
        . a . .
        b c . d
        . e f .
        """

    private func junctionMap(restriction value: String, to target: String) -> TinyMap {
        var map = TinyMap(Self.junction)
        let ac = map.way("ac", Self.residential)
        let cd = map.way("cd", Self.residential)
        let ce = map.way("ce", Self.residential)
        map.way("bc", Self.residential)
        map.way("efd", Self.residential)
        map.restriction(value, from: ac, via: "c", to: target == "cd" ? cd : ce)
        return map
    }

    @Test func noLeftTurnMakesTheRouteDetour() throws {
        let map = junctionMap(restriction: "no_left_turn", to: "cd")
        let found = try routes(map, [("a", "d"), ("b", "d"), ("d", "a"), ("a", "e"), ("a", "b")])
        #expect(found == ["acefd", "bcd", "dca", "ace", "acb"])
        let statistics = try map.build().statistics
        #expect(statistics.restrictionsApplied == 1)
        #expect(statistics.splitNodes == 1)
    }

    @Test func onlyStraightOnForbidsEveryOtherTurn() throws {
        let map = junctionMap(restriction: "only_straight_on", to: "ce")
        let found = try routes(map, [("a", "d"), ("a", "b"), ("a", "e"), ("b", "d")])
        #expect(found == ["acefd", "acecb", "ace", "bcd"])
    }

    /// Two restrictions from the same way at the same node share one copy of the node.
    @Test func restrictionsFromOneWayAtOneNodeShareACopy() throws {
        var map = TinyMap(Self.junction)
        let ac = map.way("ac", Self.residential)
        let cd = map.way("cd", Self.residential)
        map.way("ce", Self.residential)
        let bc = map.way("bc", Self.residential)
        map.way("efd", Self.residential)
        map.restriction("no_left_turn", from: ac, via: "c", to: cd)
        map.restriction("no_right_turn", from: ac, via: "c", to: bc)
        let statistics = try map.build().statistics
        #expect(statistics.restrictionsApplied == 2)
        #expect(statistics.splitNodes == 1)
        let found = try routes(map, [("a", "d"), ("a", "b")])
        #expect(found == ["acefd", "acecb"])
    }

    /// A restricted turn followed by another: the copy's edge arrives at the next copy.
    @Test func consecutiveRestrictionsCompose() throws {
        var map = TinyMap(Self.junction)
        let ac = map.way("ac", Self.residential)
        map.way("cd", Self.residential)
        let ce = map.way("ce", Self.residential)
        map.way("bc", Self.residential)
        let efd = map.way("efd", Self.residential)
        map.restriction("only_straight_on", from: ac, via: "c", to: ce)
        map.restriction("no_left_turn", from: ce, via: "e", to: efd)
        let found = try routes(map, [("a", "d"), ("a", "f")])
        #expect(found == ["acecd", "acecdf"])
    }

    @Test func viaWayRestrictionsAreSkippedAndCounted() throws {
        var map = TinyMap(Self.junction)
        map.way("ac", Self.residential)
        map.way("cd", Self.residential)
        map.way("efd", Self.residential)
        map.way("ce", Self.residential)
        let xml = map.xml.replacingOccurrences(of: "</osm>", with: """
            <relation id="7"><member type="way" ref="101" role="from"/><member type="way" ref="102" role="via"/>\
            <member type="way" ref="103" role="to"/><tag k="type" v="restriction"/><tag k="restriction" v="no_u_turn"/></relation>
            </osm>
            """)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("via-way-\(UUID()).osm")
        try xml.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = GraphBuilder.build(try OSMExtract(contentsOf: file.path), profile: CarProfile())
        #expect(result.statistics.restrictionsSkipped[.viaWay] == 1)
        #expect(result.statistics.restrictionsSkippedTotal == 1)
        #expect(result.statistics.restrictionsApplied == 0)
    }

    @Test func restrictionForOtherVehiclesOrExemptingCarsIsIgnored() throws {
        var map = TinyMap(Self.junction)
        let ac = map.way("ac", Self.residential)
        let cd = map.way("cd", Self.residential)
        map.way("ce", Self.residential)
        map.way("bc", Self.residential)
        map.way("efd", Self.residential)
        map.restriction("no_left_turn", from: ac, via: "c", to: cd, key: "restriction:hgv")
        map.restriction("no_left_turn", from: ac, via: "c", to: cd, extraTags: ["except": "bus;motorcar"])
        let found = try routes(map, [("a", "d")])
        #expect(found == ["acd"])
        #expect(try map.build().statistics.restrictionsNotForProfile == 2)
    }

    @Test func footWalksFootwaysAndIgnoresCarOneway() throws {
        var map = TinyMap(Self.block)
        map.way("ab", ["highway": "residential", "oneway": "yes"])
        map.way("bdc", ["highway": "footway"])
        map.way("ca", ["highway": "steps"])
        let foot = FootProfile()
        let found = try routes(map, [("b", "a"), ("b", "c")], profile: foot)
        #expect(found == ["ba", "bdc"])
        let graph = try map.build(foot).graph
        let route = try #require(TinyRoute(graph, on: map, from: "d", to: "c"))
        let metres = map.positions["d"]!.haversineDistance(to: map.positions["c"]!)
        #expect(route.durationMs == Int((metres / (FootProfile.walkingSpeedKmh / 3.6) * 1000).rounded()))
    }

    @Test func wayWithAMissingNodeIsSplitThereAndCounted() throws {
        var map = TinyMap(Self.block)
        map.way("ab?dc", Self.residential)
        map.way("ca", Self.residential)
        map.way("bd", Self.residential)
        let extract = try map.extract()
        #expect(extract.missingNodeReferences == 1)
        #expect(extract.waysWithMissingNodes == 1)
        #expect(extract.ways.filter { $0.id == 101 }.map(\.nodes.count) == [2, 2])
        let result = GraphBuilder.build(extract, profile: CarProfile())
        #expect(result.statistics.missingNodeReferences == 1)
        #expect(result.graph.nodeCount == 4)
        let found = try routes(map, [("a", "b"), ("d", "c")])
        #expect(found == ["ab", "dc"])
    }

    @Test func nodesOutsideTheLargestStronglyConnectedComponentAreDropped() throws {
        var map = TinyMap("""
            a . b . e
            . . . . .
            c . d . f
            """)
        map.way("abdca", Self.residential)
        map.way("bef", ["highway": "residential", "oneway": "yes"])
        let result = try map.build()
        #expect(result.graph.nodeCount == 4)
        #expect(result.statistics.droppedNodes == 2)
        #expect(result.graph.edgeCount == 8)
        #expect(result.edgeWayIDs.count == 8)
    }

    @Test func graphRowsAreConsistent() throws {
        let result = try junctionMap(restriction: "no_left_turn", to: "cd").build()
        let graph = result.graph
        #expect(graph.firstEdge.count == graph.nodeCount + 1)
        #expect(graph.firstEdge.last == UInt32(graph.edgeCount))
        #expect(graph.edgeHead.allSatisfy { Int($0) < graph.nodeCount })
        #expect(graph.edgeDurationMs.allSatisfy { $0 > 0 })
        let edgeCount = graph.edgeCount
        #expect(graph.edgeLengthMetres.count == edgeCount)
        #expect(graph.edgeRoadClass.count == edgeCount)
        #expect(result.edgeWayIDs.count == edgeCount)
    }
}
