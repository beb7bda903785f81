import GeoKit
import Testing
@testable import Routing

@Suite(.timeLimit(.minutes(20))) struct SnapperTests {
    /// A ─── B          (two-way, 84 m east-west at 40.75° N)
    ///       │
    ///       C          (one-way B → C, 111 m south)
    static let map: RoadGraph = {
        let a = Coordinate(longitude: -73.990, latitude: 40.750)
        let b = Coordinate(longitude: -73.989, latitude: 40.750)
        let c = Coordinate(longitude: -73.989, latitude: 40.749)
        func edge(_ tail: UInt32, _ head: UInt32, _ metres: Float) -> SyntheticCity.Edge {
            .init(tail: tail, head: head, durationMs: UInt32(metres * 100), lengthMetres: metres, roadClass: .residential)
        }
        return SyntheticCity.graph(coordinates: [a, b, c], edges: [edge(0, 1, 84.3), edge(1, 0, 84.3), edge(1, 2, 111.2)])
    }()

    /// A point 10 m north of the middle of A–B lands halfway along A–B, 10 m away.
    @Test func snapsToTheNearestPointOfTheNearestSegment() throws {
        let snapper = Snapper(graph: Self.map)
        let point = Coordinate(longitude: -73.9895, latitude: 40.750 + 10 / 111_195.0)
        let snap = try snapper.snap(point, maxDistanceMetres: 50)
        #expect(snap.edge == 0 || snap.edge == 1)
        let alongAB = snap.edge == 0 ? snap.fraction : 1 - snap.fraction
        #expect(abs(alongAB - 0.5) < 0.01)
        #expect(abs(snap.distanceMetres - 10) < 0.1)
        #expect(abs(snap.point.latitude - 40.750) < 1e-7)
    }

    /// A point east of C's road projects onto B → C, clamped within the segment.
    @Test func snapsToTheOneWaySegment() throws {
        let snapper = Snapper(graph: Self.map)
        let snap = try snapper.snap(Coordinate(longitude: -73.9888, latitude: 40.7493), maxDistanceMetres: 50)
        #expect(snap.edge == 2)
        #expect(snap.fraction > 0.6 && snap.fraction < 0.8)
        #expect(abs(snap.distanceMetres - 16.9) < 0.5)
    }

    /// A point written lat,lon instead of lon,lat is thousands of kilometres
    /// off; the error says the order looks swapped, and only then.
    @Test func aSwappedPointIsToldSo() {
        let snapper = Snapper(graph: Self.map)
        let swapped = Coordinate(longitude: 40.7502, latitude: -73.9895)
        #expect {
            try snapper.snap(swapped, maxDistanceMetres: 250)
        } throws: { error in
            "\(error)".contains("longitude and latitude look swapped: give the longitude first (LON,LAT)")
        }
        #expect {
            try snapper.snap(Coordinate(longitude: -73.9895, latitude: 40.760), maxDistanceMetres: 100)
        } throws: { error in
            !"\(error)".contains("swapped")
        }
    }

    /// Beyond the limit the error names the real distance and the limit.
    @Test func refusesPointsBeyondTheLimit() {
        let snapper = Snapper(graph: Self.map)
        let far = Coordinate(longitude: -73.9895, latitude: 40.760)
        #expect {
            try snapper.snap(far, maxDistanceMetres: 100)
        } throws: { error in
            guard case let SnapError.tooFarFromRoad(distance, limit, _) = error else { return false }
            return abs(distance - 1_112) < 5 && limit == 100
                && "\(error)".contains("1112 m") && "\(error)".contains("100 m")
        }
    }

    /// Snapping a moving fleet: near a road the same candidates as the
    /// throwing call, beyond the limit nil (a taxi that left the map).
    @Test func candidatesIfNearAgreeWithCandidatesAndGiveNilBeyondTheLimit() throws {
        let snapper = Snapper(graph: Self.map)
        let near = Coordinate(longitude: -73.9895, latitude: 40.750 + 10 / 111_195.0)
        let expected = try snapper.candidates(near, maxDistanceMetres: 50, radiusMetres: 150)
        #expect(snapper.candidatesIfNear(near, maxDistanceMetres: 50, radiusMetres: 150) == expected)
        #expect(expected.count == 2, "A–B and B → C")
        #expect(snapper.candidatesIfNear(Coordinate(longitude: -73.9895, latitude: 40.760), maxDistanceMetres: 100, radiusMetres: 150) == nil)
    }

    /// On a large grid the ring search finds the same segment as scanning every edge.
    @Test func ringSearchMatchesExhaustiveSearch() throws {
        let graph = TestGraphs.grid(30, 30)
        let snapper = Snapper(graph: graph)
        var random = SplitMix64(state: 5)
        for _ in 0..<300 {
            let point = Coordinate(longitude: -73.99 + .random(in: -0.002...0.03, using: &random),
                                   latitude: 40.75 + .random(in: -0.001...0.022, using: &random))
            let snap = try snapper.snap(point, maxDistanceMetres: 1_000)
            // With a zero limit the snapper scans every edge to name the nearest distance.
            var exhaustive = -1.0
            do { _ = try snapper.snap(point, maxDistanceMetres: 0) } catch let SnapError.tooFarFromRoad(distance, _, _) {
                exhaustive = distance
            }
            #expect(abs(exhaustive - snap.distanceMetres) < 1e-4, "the index is single precision: a tenth of a millimetre")
            #expect(snap.distanceMetres < 300)
        }
    }
}
