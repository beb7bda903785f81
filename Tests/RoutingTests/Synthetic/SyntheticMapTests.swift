import GeoKit
import Testing
@testable import Routing

/// The synthetic city looks like an imported one once built: its size is the
/// one asked for, the same seed draws the same city, and it has the road
/// classes, one-way streets, traffic signals and stray fragments of a real extract.
@Suite(.timeLimit(.minutes(20))) struct SyntheticMapTests {
    @Test func theSameSeedDrawsTheSameCityAndAnotherSeedAnother() {
        let first = SyntheticMap.extract(nodes: 5_000, seed: 3)
        let again = SyntheticMap.extract(nodes: 5_000, seed: 3)
        let other = SyntheticMap.extract(nodes: 5_000, seed: 4)
        #expect(first.ways == again.ways)
        #expect(first.nodeCoordinates == again.nodeCoordinates)
        #expect(first.nodeCoordinates != other.nodeCoordinates)
    }

    @Test func theBuiltGraphHasAboutTheNodesAskedFor() {
        for nodes in [2_000, 20_000] {
            let result = GraphBuilder.build(SyntheticMap.extract(nodes: nodes, seed: 1), profile: CarProfile())
            let count = result.graph.nodeCount
            #expect(Double(count) > Double(nodes) * 0.85 && Double(count) < Double(nodes) * 1.15,
                    "asked for \(nodes), built \(count)")
            #expect(result.statistics.droppedNodes < nodes / 10)
        }
        let city = GraphBuilder.build(SyntheticMap.extract(nodes: 20_000, seed: 1), profile: CarProfile())
        #expect(city.statistics.droppedNodes > 0, "missing blocks leave one-way fragments outside the largest component")
    }

    @Test func itHasArterialsOneWayStreetsSignalsAndShapePoints() {
        let result = GraphBuilder.build(SyntheticMap.extract(nodes: 20_000, seed: 1), profile: CarProfile())
        let graph = result.graph
        let classes = Set(graph.edgeRoadClass)
        #expect(classes == [.primary, .secondary, .tertiary, .residential])
        let tails = graph.edgeTails()
        let oneWay = (0..<graph.edgeCount).filter { edge in
            !graph.edges(from: Int(graph.edgeHead[edge])).contains { graph.edgeHead[$0] == tails[edge] }
        }
        #expect(oneWay.count > graph.edgeCount / 10, "\(oneWay.count) one-way edges of \(graph.edgeCount)")
        #expect(oneWay.allSatisfy { graph.edgeRoadClass[$0] == .residential })
        #expect(graph.edgeSignalApproach.contains { $0 != .none })
        let degreeTwo = (0..<graph.nodeCount).filter { graph.edges(from: $0).count <= 2 }.count
        #expect(degreeTwo > graph.nodeCount / 2, "most nodes are shape points, as in OSM")
        let box = BoundingBox(enclosing: graph.coordinates)!
        #expect(box.minX > 13.3 && box.maxX < 13.5 && box.minY > 52.45 && box.maxY < 52.59, "drawn around Berlin: \(box)")
    }
}
