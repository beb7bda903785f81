import GeoKit
import Testing
@testable import Routing

@Suite(.timeLimit(.minutes(20))) struct RoadGraphTests {
    @Test func outgoingEdgesComeFromTheRowIndex() {
        let graph = RoadGraph(
            coordinates: [Coordinate(longitude: 0, latitude: 0), Coordinate(longitude: 0.001, latitude: 0)],
            firstEdge: [0, 1, 2], edgeHead: [1, 0], edgeDurationMs: [8_000, 8_000],
            edgeLengthMetres: [111, 111], edgeRoadClass: [.residential, .residential])
        #expect(graph.edges(from: 0) == 0..<1)
        #expect(graph.edgeHead[graph.edges(from: 1).lowerBound] == 0)
    }
}
