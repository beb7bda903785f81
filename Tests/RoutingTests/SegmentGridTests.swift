import Foundation
import GeoKit
import Testing
@testable import Routing

/// The snapper's spatial index gives the answers of scanning every edge: the
/// nearest road (same distance to a tenth of a millimetre, the index holding
/// its segments in single precision; same edge, or one as near) and every road
/// within the snapping radius, on a synthetic city, for random points on it,
/// around it and far outside it.
@Suite(.timeLimit(.minutes(20))) struct SegmentGridTests {
    static let graph = GraphBuilder.build(SyntheticMap.extract(nodes: 8_000, seed: 9), profile: CarProfile()).graph

    /// A point's distance to every edge, on the snapper's plane (equirectangular at the graph's mean latitude).
    struct BruteForce {
        let graph: RoadGraph
        let x: [Double], y: [Double], xScale: Double, yScale: Double
        let tails: [UInt32]

        init(_ graph: RoadGraph) {
            self.graph = graph
            let metresPerDegree = Coordinate.earthRadiusMetres * .pi / 180
            let meanLatitude = graph.coordinates.reduce(0) { $0 + $1.latitude } / Double(graph.nodeCount)
            xScale = metresPerDegree * cos(meanLatitude * .pi / 180)
            yScale = metresPerDegree
            x = graph.coordinates.map { $0.longitude * metresPerDegree * cos(meanLatitude * .pi / 180) }
            y = graph.coordinates.map { $0.latitude * metresPerDegree }
            tails = graph.edgeTails()
        }

        /// (fraction, distance) of `coordinate`'s projection onto every edge.
        func projections(_ coordinate: Coordinate) -> [(edge: Int, fraction: Double, distance: Double)] {
            let px = coordinate.longitude * xScale, py = coordinate.latitude * yScale
            return (0..<graph.edgeCount).map { edge in
                let a = Int(tails[edge]), b = Int(graph.edgeHead[edge])
                let dx = x[b] - x[a], dy = y[b] - y[a]
                let squared = dx * dx + dy * dy
                let t = squared > 0 ? min(max(((px - x[a]) * dx + (py - y[a]) * dy) / squared, 0), 1) : 0
                let ex = x[a] + dx * t - px, ey = y[a] + dy * t - py
                return (edge, t, (ex * ex + ey * ey).squareRoot())
            }
        }

        /// Where a route would start from a projection: a node, or a road (its two nodes in order).
        func place(_ edge: Int, _ fraction: Double) -> [UInt32] {
            if fraction == 0 { return [tails[edge]] }
            if fraction == 1 { return [graph.edgeHead[edge]] }
            return [tails[edge], graph.edgeHead[edge]].sorted()
        }
    }

    /// Random points over the city's bounding box and 200-300 m around it.
    static func points(_ count: Int, seed: UInt64) -> [Coordinate] {
        let box = BoundingBox(enclosing: graph.coordinates)!
        var random = SplitMix64(state: seed)
        return (0..<count).map { _ in
            Coordinate(longitude: .random(in: box.minX - 0.003...box.maxX + 0.003, using: &random),
                       latitude: .random(in: box.minY - 0.002...box.maxY + 0.002, using: &random))
        }
    }

    /// How far the index's distances may be from double precision's, in metres.
    static let tolerance = 1e-4

    @Test func theNearestRoadIsTheOneScanningEveryEdgeFinds() throws {
        let snapper = Snapper(graph: Self.graph)
        let brute = BruteForce(Self.graph)
        var snapped = 0
        for point in Self.points(1_000, seed: 1) {
            let all = brute.projections(point)
            let nearest = all.map(\.distance).min()!
            guard let snap = try? snapper.snap(point, maxDistanceMetres: 250) else {
                #expect(nearest > 250, "refused a point \(nearest) m from a road")
                continue
            }
            snapped += 1
            #expect(abs(snap.distanceMetres - nearest) < Self.tolerance)
            let asNear = all.filter { $0.distance - nearest < Self.tolerance }
            #expect(asNear.contains { $0.edge == snap.edge }, "edge \(snap.edge) is not among the nearest")
        }
        #expect(snapped > 700, "most points lie on the city")
    }

    @Test func theCandidatesAreEveryRoadWithinTheRadius() throws {
        let snapper = Snapper(graph: Self.graph)
        let brute = BruteForce(Self.graph)
        var checked = 0
        for point in Self.points(500, seed: 2) {
            guard let candidates = snapper.candidatesIfNear(point, maxDistanceMetres: 250, radiusMetres: 40, limit: 1_000)
            else { continue }
            checked += 1
            let all = brute.projections(point)
            let nearest = all.min { ($0.distance, $0.edge) < ($1.distance, $1.edge) }!
            var expected = Set(all.filter { $0.distance < 40 }.map { brute.place($0.edge, $0.fraction) })
            expected.insert(brute.place(nearest.edge, nearest.fraction))
            let found = candidates.map { brute.place($0.edge, $0.fraction) }
            #expect(Set(found) == expected)
            #expect(found.count == Set(found).count, "each place once")
            #expect(candidates.map(\.distanceMetres) == candidates.map(\.distanceMetres).sorted(), "nearest first")
        }
        #expect(checked > 350)
    }

    /// Fixes as the service snaps them, on roads give or take up to 20 m, with
    /// the router's radius: most are answered from their own cell, which
    /// lists every road within the grid's margin of it; some lie beyond the
    /// margin from every road and are searched for outward. Both give what
    /// scanning every edge gives.
    @Test func fixesNearRoadsGetTheNearestRoadAndEveryRoadWithinTheRoutersRadius() throws {
        let snapper = Snapper(graph: Self.graph)
        let brute = BruteForce(Self.graph)
        var random = SplitMix64(state: 4)
        var beyondTheMargin = 0
        for _ in 0..<600 {
            let edge = Int(random.next() % UInt64(Self.graph.edgeCount))
            let a = Self.graph.coordinates[Int(brute.tails[edge])], b = Self.graph.coordinates[Int(Self.graph.edgeHead[edge])]
            let along = Double.random(in: 0...1, using: &random)
            let onRoad = Coordinate(longitude: a.longitude + (b.longitude - a.longitude) * along,
                                    latitude: a.latitude + (b.latitude - a.latitude) * along)
            let fix = onRoad.offset(eastMetres: .random(in: -20...20, using: &random), northMetres: .random(in: -20...20, using: &random))
            let candidates = try #require(snapper.candidatesIfNear(fix, maxDistanceMetres: 250, radiusMetres: 15, limit: 1_000))
            let all = brute.projections(fix)
            let nearest = all.min { ($0.distance, $0.edge) < ($1.distance, $1.edge) }!
            if nearest.distance > Snapper.gridMarginMetres { beyondTheMargin += 1 }
            #expect(abs(candidates[0].distanceMetres - nearest.distance) < Self.tolerance)
            var expected = Set(all.filter { $0.distance < 15 }.map { brute.place($0.edge, $0.fraction) })
            expected.insert(brute.place(nearest.edge, nearest.fraction))
            #expect(Set(candidates.map { brute.place($0.edge, $0.fraction) }) == expected)
        }
        #expect(beyondTheMargin > 10, "some fixes lie beyond the margin from every road")
    }

    /// Snapping many points in one call gives each the candidates of
    /// snapping it alone, index for index, nil off the map: the list of
    /// nearby roads the batch reuses carries nothing from one point to the next.
    @Test func aBatchGivesEachPointTheCandidatesOfSnappingItAlone() {
        let snapper = Snapper(graph: Self.graph)
        let box = BoundingBox(enclosing: Self.graph.coordinates)!
        var points = Self.points(400, seed: 3)
        points.insert(Coordinate(longitude: box.maxX + 0.5, latitude: box.maxY + 0.5), at: 17)
        let batch = snapper.candidatesIfNear(points, maxDistanceMetres: 250, radiusMetres: 40)
        #expect(batch.count == points.count)
        for (point, found) in zip(points, batch) {
            #expect(found.map(Array.init) == snapper.candidatesIfNear(point, maxDistanceMetres: 250, radiusMetres: 40))
        }
        #expect(batch[17] == nil)
        #expect(batch.count { ($0?.count ?? 0) > 1 } > 50, "many points lie near several roads")
        #expect(batch.count { $0?.count == 1 } > 50, "and many near one")
    }

    @Test func aPointFarOutsideTheCityIsRefusedWithItsDistance() throws {
        let snapper = Snapper(graph: Self.graph)
        let box = BoundingBox(enclosing: Self.graph.coordinates)!
        let far = Coordinate(longitude: box.maxX + 0.5, latitude: box.maxY + 0.5)
        let nearest = BruteForce(Self.graph).projections(far).map(\.distance).min()!
        #expect(snapper.candidatesIfNear(far, maxDistanceMetres: 250, radiusMetres: 15) == nil)
        let error = #expect(throws: SnapError.self) { try snapper.snap(far, maxDistanceMetres: 250) }
        guard case .tooFarFromRoad(let distance, let limit, let swappedIsNear)? = error else { return }
        #expect(!swappedIsNear)
        #expect(abs(distance - nearest) < Self.tolerance)
        #expect(limit == 250)
        #expect(error?.description == "nearest road is \(Int(nearest.rounded())) m away, beyond the 250 m snapping limit")
        #expect(abs(try snapper.snap(far, maxDistanceMetres: 100_000).distanceMetres - nearest) < Self.tolerance)
    }

    /// Found writing the graph-file fuzz target: a graph with a node far from
    /// the rest (a damaged file: one node across the globe) asked for 250 m
    /// cells over the whole Earth, 1.3 × 10^10 of them, and the router's load
    /// died allocating them. Cells grow instead, and snapping still finds the
    /// nearest road, to a centimetre: the grid holds segments in single
    /// precision from their cell's corner, and these cells are 100 km wide.
    @Test func aGraphSpreadOverTheGlobeGetsABoundedGridThatStillSnaps() throws {
        func edge(_ tail: UInt32, _ head: UInt32) -> SyntheticCity.Edge {
            SyntheticCity.Edge(tail: tail, head: head, durationMs: 1_000, lengthMetres: 10, roadClass: .residential)
        }
        let nodes = [
            Coordinate(longitude: 7.42, latitude: 43.73), Coordinate(longitude: 7.421, latitude: 43.73),
            Coordinate(longitude: -179.9, latitude: -89), Coordinate(longitude: 179.9, latitude: 89),
        ]
        let graph = SyntheticCity.graph(coordinates: nodes, edges: [edge(0, 1), edge(1, 0), edge(2, 3)])
        let size = SegmentGrid.cellSize(width: 4e7, height: 2e7, segments: 2)
        #expect((4e7 / size + 1) * (2e7 / size + 1) <= Double(SegmentGrid.maximumCells(segments: 2)))
        #expect(SegmentGrid.cellSize(width: 10_000, height: 10_000, segments: 20_000) == 1.4 * (1e8 / 20_000.0).squareRoot())

        let snap = try Snapper(graph: graph).snap(Coordinate(longitude: 7.4205, latitude: 43.7301), maxDistanceMetres: 250)
        let nearest = BruteForce(graph).projections(Coordinate(longitude: 7.4205, latitude: 43.7301)).min { $0.distance < $1.distance }!
        #expect(snap.edge == nearest.edge || snap.edge == 1 - nearest.edge)
        #expect(abs(snap.distanceMetres - nearest.distance) < 0.01)
    }
}
