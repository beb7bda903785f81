import GeoKit
import Testing
@testable import Routing

@Suite(.timeLimit(.minutes(20))) struct DijkstraTests {
    /// Keys come out in ascending order, lowered keys included, with no duplicates.
    @Test func heapPopsInKeyOrderAfterDecreaseKey() {
        let heap = MinHeap(capacity: 100)
        var random = SplitMix64(state: 1)
        var expected = [Int: UInt32]()
        for _ in 0..<500 {
            let id = Int(random.next() % 100), key = UInt32(random.next() % 10_000)
            heap.insertOrDecrease(id, key: key)
            expected[id] = min(expected[id] ?? .max, key)
        }
        var popped: [(Int, UInt32)] = []
        while !heap.isEmpty { popped.append(heap.popMin()) }
        #expect(popped.count == expected.count)
        #expect(zip(popped, popped.dropFirst()).allSatisfy { $0.1 <= $1.1 })
        #expect(popped.allSatisfy { expected[$0.0] == $0.1 })
    }

    /// One-to-all Dijkstra equals a CCH one-to-many table over every node.
    @Test func oneToAllEqualsTheCCHTable() {
        let graph = TestGraphs.randomGeometric(nodes: 400, seed: 12)
        let topology = CCHTopology(graph: graph)
        let metric = CCHMetric(topology: topology, graph: graph, weights: graph.edgeDurationMs)
        let everyNode = (0..<UInt32(graph.nodeCount)).map { [SearchSeed(node: $0)] }
        let selection = CCHSelection(topology: topology, endpoints: everyNode)
        let query = CCHQuery(topology: topology)
        let dijkstra = Dijkstra(graph: graph)
        for source in [0, 17, 200, graph.nodeCount - 1] {
            let table = query.oneToMany(from: [SearchSeed(node: UInt32(source))], to: selection, metric: metric)
            #expect(table.map(\.durationMs) == dijkstra.distances(from: source, weights: graph.edgeDurationMs))
        }
    }
}
