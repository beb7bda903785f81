import Foundation
import GeoKit
import Testing
@testable import Routing

/// Candidate snapping: a coordinate near a corner may start on any road
/// within the snap radius, and the route takes the one that is fastest.
@Suite(.timeLimit(.minutes(20))) struct SnapCandidateTests {
    /// Metres north and east of the corner C at 40.75° N, -73.99.
    static func at(east: Double, north: Double) -> Coordinate {
        Coordinate(longitude: -73.99 + east / (111_195 * cos(40.75 * .pi / 180)), latitude: 40.75 + north / 111_195)
    }

    ///   N ◀── NE        N–NE one-way west, NE–E one-way north
    ///   ║      ▲        C–N two-way, 100 m north
    ///   ║      │
    ///   C ───▶ E        C–E one-way east, 100 m
    static let corner: RoadGraph = {
        let nodes = [at(east: 0, north: 0), at(east: 100, north: 0), at(east: 100, north: 100), at(east: 0, north: 100)]
        func edge(_ tail: UInt32, _ head: UInt32) -> SyntheticCity.Edge {
            .init(tail: tail, head: head, durationMs: 10_000, lengthMetres: 100, roadClass: .residential)
        }
        return SyntheticCity.graph(coordinates: nodes, edges: [edge(0, 1), edge(1, 2), edge(2, 3), edge(0, 3), edge(3, 0)])
    }()

    /// A pickup 3 m from the one-way street C→E and 8 m from the two-way C–N.
    static let pickup = at(east: 8, north: 3)
    /// A drop-off 80 m up C–N.
    static let dropOff = at(east: 0, north: 80)
    static let night = Date(timeIntervalSince1970: 1_795_392_000 + 27 * 3600)

    static func router(radius: Double) -> RoadRouter {
        RoadRouter(graph: corner, timeZone: .gmt, snapRadiusMetres: radius)
    }

    /// The snapper lists the nearest road first, then each other road within the radius once.
    @Test func candidatesAreTheRoadsWithinTheRadiusNearestFirst() throws {
        let snapper = Snapper(graph: Self.corner)
        let candidates = try snapper.candidates(Self.pickup, maxDistanceMetres: 250, radiusMetres: 15)
        #expect(candidates.count == 2)
        #expect(candidates.first == (try snapper.snap(Self.pickup, maxDistanceMetres: 250)))
        #expect(abs(candidates[0].distanceMetres - 3) < 0.1)
        #expect(abs(candidates[1].distanceMetres - 8) < 0.1)
        let heads = Self.corner.edgeHead, tails = snapper.edgeTail
        #expect(Set([tails[candidates[1].edge], heads[candidates[1].edge]]) == [0, 3], "the C–N road, once")
        #expect(try snapper.candidates(Self.pickup, maxDistanceMetres: 250, radiusMetres: 5).count == 1)
        #expect(try snapper.candidates(Self.pickup, maxDistanceMetres: 250, radiusMetres: 0) == [candidates[0]])
        #expect(try snapper.candidates(Self.pickup, maxDistanceMetres: 250, radiusMetres: 15, limit: 1) == [candidates[0]])
        #expect(throws: SnapError.self) { try snapper.candidates(Self.pickup, maxDistanceMetres: 2, radiusMetres: 15) }
    }

    /// Outside the corner every road's nearest point is the corner itself: one candidate, there.
    @Test func roadsMeetingAtTheNearestJunctionGiveOneCandidate() throws {
        let snapper = Snapper(graph: Self.corner)
        let candidates = try snapper.candidates(Self.at(east: -4, north: -4), maxDistanceMetres: 250, radiusMetres: 15)
        #expect(candidates.count == 1)
        #expect(abs(candidates[0].distanceMetres - 32.squareRoot()) < 0.1)
        #expect(candidates[0].point.haversineDistance(to: Self.at(east: 0, north: 0)) < 0.1)
    }

    /// Two nodes at one place (as the graph builder splits a junction for a
    /// turn restriction) are two starts: roads ending there give one
    /// candidate per node, not one per place.
    @Test func distinctNodesAtOnePlaceGiveACandidateEach() throws {
        let nodes = [Self.at(east: 0, north: 0), Self.at(east: 0, north: 0), Self.at(east: 100, north: 0),
                     Self.at(east: 0, north: 100)]
        func edge(_ tail: UInt32, _ head: UInt32) -> SyntheticCity.Edge {
            .init(tail: tail, head: head, durationMs: 10_000, lengthMetres: 100, roadClass: .residential)
        }
        let graph = SyntheticCity.graph(coordinates: nodes, edges: [edge(0, 2), edge(2, 0), edge(1, 3), edge(3, 1)])
        let snapper = Snapper(graph: graph)
        let point = Self.at(east: -4, north: -4)
        let candidates = try snapper.candidates(point, maxDistanceMetres: 250, radiusMetres: 15)
        let tails = snapper.edgeTail, heads = graph.edgeHead
        let startNodes = candidates.map { $0.fraction == 0 ? tails[$0.edge] : heads[$0.edge] }
        #expect(Set(startNodes) == [0, 1])
        #expect(candidates.allSatisfy { $0.point.haversineDistance(to: Self.at(east: 0, north: 0)) < 0.1 })
        // In a batch, each point gets its own candidates, as when snapped alone; one off the map gets none.
        let farAway = Self.at(east: 2_000, north: 2_000)
        let batch = snapper.candidatesIfNear([point, Self.pickup, farAway, point], maxDistanceMetres: 250,
                                             radiusMetres: 15)
        let pickupCandidates = try snapper.candidates(Self.pickup, maxDistanceMetres: 250, radiusMetres: 15)
        #expect(pickupCandidates.count == 2)
        #expect(batch.map { $0.map(Array.init) } == [candidates, pickupCandidates, nil, candidates])
    }

    /// Without a radius the pickup snaps to the one-way street and goes round
    /// the block; with one it starts on the street it is 8 m from and drives
    /// straight up, and the route reports that street's snap distance.
    @Test func aCornerPickupAvoidsGoingRoundTheBlock() throws {
        let nearestOnly = try Self.router(radius: 0).route(from: Self.pickup, to: Self.dropOff, depart: Self.night,
                                                             includeGeometry: true)
        #expect(abs(nearestOnly.distanceMetres - (92 + 100 + 100 + 20)) < 1)
        #expect(abs(nearestOnly.sourceSnapMetres - 3) < 0.1)
        let candidates = try Self.router(radius: 15).route(from: Self.pickup, to: Self.dropOff, depart: Self.night,
                                                             includeGeometry: true)
        #expect(candidates.durationSeconds < nearestOnly.durationSeconds / 3)
        #expect(abs(candidates.distanceMetres - 77) < 1)
        #expect(abs(candidates.sourceSnapMetres - 8) < 0.1)
        #expect(Self.pickup.haversineDistance(to: candidates.geometry.first!) <= candidates.sourceSnapMetres + 0.5)
        #expect(abs(candidates.geometry.first!.longitude - Self.at(east: 0, north: 0).longitude) < 1e-7)
    }

    /// A radius of 0 gives the answers of snapping to the nearest road, for routes and tables alike.
    @Test func radiusZeroIsTheNearestRoadOnly() throws {
        let router = Self.router(radius: 0)
        let metric = router.metric(departing: Self.night)
        let snap = try router.snapper.snap(Self.pickup, maxDistanceMetres: 250)
        let target = try router.snapper.snap(Self.dropOff, maxDistanceMetres: 250)
        let reference = try #require(Dijkstra(graph: Self.corner).shortestPath(
            from: router.sourceSeeds(snap, metric).map(\.seed), to: router.targetSeeds(target, metric).map(\.seed),
            weights: metric.edgeWeights))
        let route = try router.route(from: Self.pickup, to: Self.dropOff, depart: Self.night)
        #expect(Int((route.durationSeconds * 1000).rounded()) == Int(reference.durationMs))
        let table = try router.table(from: [Self.pickup], to: Self.dropOff, depart: Self.night)
        #expect(table[0]?.durationSeconds == route.durationSeconds)
    }

    /// The edges calibration splits a trip into are those of the route taken, candidate included.
    @Test func drivenEdgesFollowTheChosenCandidate() throws {
        let router = Self.router(radius: 15)
        let route = try router.route(from: Self.pickup, to: Self.dropOff, depart: Self.night)
        let driven = try router.drivenEdges(from: Self.pickup, to: Self.dropOff, depart: Self.night)
        let metres = driven.reduce(0) { $0 + Double(Self.corner.edgeLengthMetres[$1.edge]) * $1.share }
        #expect(abs(metres - route.distanceMetres) < 0.5)
        #expect(driven.map { router.snapper.edgeTail[$0.edge] } == [0])
    }
}
