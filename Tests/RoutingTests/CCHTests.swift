import GeoKit
import Testing
@testable import Routing

@Suite(.timeLimit(.minutes(20))) struct CCHTests {
    static let graphs: [(String, RoadGraph)] = [
        ("grid", TestGraphs.grid(40, 30)),
        ("random geometric", TestGraphs.randomGeometric(nodes: 600, seed: 3)),
        ("grid with shape points", SyntheticCity.grid(columns: 15, rows: 12, shapePoints: 2, seed: 4)),
    ]

    /// Thousands of random pairs: the elimination-tree query equals Dijkstra, unreachable pairs included.
    @Test(arguments: [0, 1, 2])
    func pointToPointEqualsDijkstra(graphIndex: Int) {
        let graph = Self.graphs[graphIndex].1
        let topology = CCHTopology(graph: graph)
        let metric = CCHMetric(topology: topology, graph: graph, weights: graph.edgeDurationMs)
        let query = CCHQuery(topology: topology)
        let dijkstra = Dijkstra(graph: graph)
        var unreachable = 0
        for (source, target) in TestGraphs.pairs(3_000, nodes: graph.nodeCount, seed: 11) {
            let expected = dijkstra.distance(from: source, to: target, weights: graph.edgeDurationMs)
            let found = query.shortestPath(from: [SearchSeed(node: UInt32(source))],
                                           to: [SearchSeed(node: UInt32(target))], metric: metric)
            #expect((found?.durationMs ?? unreachableMs) == expected, "\(source) → \(target)")
            if expected == unreachableMs { unreachable += 1 }
        }
        if graphIndex == 1 { #expect(unreachable > 0, "the isolated node makes some pairs unreachable") }
    }

    /// Customizing on two threads (the subtrees hanging off the elimination
    /// tree's spine in two parts, each on its own, the spine after) gives the weights one thread gives, and
    /// queries on it still equal Dijkstra, closed roads and the isolated node included.
    @Test(arguments: [0, 1, 2])
    func twoThreadsCustomizeAsOneDoes(graphIndex: Int) {
        let graph = Self.graphs[graphIndex].1
        var weights = graph.edgeDurationMs
        var random = SplitMix64(state: 13)
        for edge in weights.indices where random.next() % 12 == 0 { weights[edge] = unreachableMs }
        let topology = CCHTopology(graph: graph)
        let split = CustomizationSplit(parent: topology.parent, firstArc: topology.firstArc, partCount: 2, minimumParallelNodes: 0)
        #expect(split.parts.count == 2)
        #expect(split.parts.allSatisfy { $0.count > graph.nodeCount / 5 }, "halves of similar size: \(split.parts.map(\.count))")
        let one = CCHMetric(topology: topology, graph: graph, weights: weights,
                            split: CustomizationSplit(parent: topology.parent, firstArc: topology.firstArc, partCount: 1))
        let two = CCHMetric(topology: topology, graph: graph, weights: weights, split: split)
        #expect(two.upWeight == one.upWeight && two.downWeight == one.downWeight)
        let query = CCHQuery(topology: topology)
        let dijkstra = Dijkstra(graph: graph)
        for (source, target) in TestGraphs.pairs(1_000, nodes: graph.nodeCount, seed: 6) {
            let found = query.shortestPath(from: [SearchSeed(node: UInt32(source))],
                                           to: [SearchSeed(node: UInt32(target))], metric: two, unpack: true)
            #expect((found?.durationMs ?? unreachableMs) == dijkstra.distance(from: source, to: target, weights: weights))
            if let found { #expect(found.edges.reduce(0) { $0 + weights[$1] } == found.durationMs, "the unpacked path is the answer") }
        }
    }

    /// Closed roads (weight = unreachable) are avoided exactly as Dijkstra avoids them.
    @Test func closedEdgesAreAvoided() {
        let graph = TestGraphs.grid(25, 25, seed: 5)
        var weights = graph.edgeDurationMs
        var random = SplitMix64(state: 9)
        for edge in weights.indices where random.next() % 10 == 0 { weights[edge] = unreachableMs }
        let topology = CCHTopology(graph: graph)
        let metric = CCHMetric(topology: topology, graph: graph, weights: weights)
        let query = CCHQuery(topology: topology)
        let dijkstra = Dijkstra(graph: graph)
        for (source, target) in TestGraphs.pairs(1_000, nodes: graph.nodeCount, seed: 2) {
            let found = query.shortestPath(from: [SearchSeed(node: UInt32(source))],
                                           to: [SearchSeed(node: UInt32(target))], metric: metric)
            #expect((found?.durationMs ?? unreachableMs) == dijkstra.distance(from: source, to: target, weights: weights))
        }
    }

    /// The unpacked edges form a connected path from source to target whose
    /// durations sum to the answer and whose lengths sum to the reported metres.
    @Test func unpackedPathSumsToTheDistance() {
        let graph = Self.graphs[0].1
        let topology = CCHTopology(graph: graph)
        let metric = CCHMetric(topology: topology, graph: graph, weights: graph.edgeDurationMs)
        let query = CCHQuery(topology: topology)
        let tails = Snapper(graph: graph).edgeTail
        for (source, target) in TestGraphs.pairs(500, nodes: graph.nodeCount, seed: 4) {
            guard let found = query.shortestPath(from: [SearchSeed(node: UInt32(source))],
                                                 to: [SearchSeed(node: UInt32(target))], metric: metric, unpack: true)
            else { continue }
            var node = source
            var duration: UInt32 = 0, metres: Float = 0
            for edge in found.edges {
                #expect(Int(tails[edge]) == node)
                node = Int(graph.edgeHead[edge])
                duration += graph.edgeDurationMs[edge]
                metres += graph.edgeLengthMetres[edge]
            }
            #expect(node == target)
            #expect(duration == found.durationMs)
            #expect(abs(metres - found.lengthMetres) < 0.01 * max(metres, 1))
        }
    }

    /// One-to-many and many-to-one tables give the point-to-point answers.
    @Test(arguments: [0, 1, 2])
    func tablesEqualPointToPoint(graphIndex: Int) {
        let graph = Self.graphs[graphIndex].1
        let topology = CCHTopology(graph: graph)
        let metric = CCHMetric(topology: topology, graph: graph, weights: graph.edgeDurationMs)
        let query = CCHQuery(topology: topology)
        var random = SplitMix64(state: 21)
        let many = (0..<200).map { _ in [SearchSeed(node: UInt32(random.next() % UInt64(graph.nodeCount)))] }
        let selection = CCHSelection(topology: topology, endpoints: many)
        for single in 0..<10 {
            let one = [SearchSeed(node: UInt32(random.next() % UInt64(graph.nodeCount)))]
            let outward = query.oneToMany(from: one, to: selection, metric: metric)
            let inward = query.manyToOne(from: selection, to: one, metric: metric)
            for (index, endpoint) in many.enumerated() {
                let to = query.shortestPath(from: one, to: endpoint, metric: metric)
                let from = query.shortestPath(from: endpoint, to: one, metric: metric)
                #expect(outward[index].durationMs == (to?.durationMs ?? unreachableMs), "single \(single) → \(index)")
                #expect(inward[index].durationMs == (from?.durationMs ?? unreachableMs), "\(index) → single \(single)")
                if let to { #expect(abs(outward[index].lengthMetres - to.lengthMetres) < 0.01 * max(to.lengthMetres, 1)) }
            }
        }
    }

    /// A topology written to bytes reads back equal; bytes of another graph are refused.
    @Test func topologySerializationRoundTrips() throws {
        let graph = Self.graphs[0].1
        let topology = CCHTopology(graph: graph)
        let bytes = topology.serialized()
        #expect(try CCHTopology(serialized: bytes, for: graph) == topology)
        #expect(throws: CCHTopologyError.self) { try CCHTopology(serialized: bytes, for: Self.graphs[1].1) }
        #expect(throws: CCHTopologyError.self) { try CCHTopology(serialized: Array(bytes.dropLast(4)), for: graph) }
        #expect(throws: CCHTopologyError.notATopology) { try CCHTopology(serialized: [1, 2, 3], for: graph) }
    }

    /// Found by the graph-file fuzz target: arcs whose heads are in range and
    /// lead upward, but out of order or without the arc that closes a
    /// triangle, passed the reading, and customizing a metric read beyond
    /// the arrays. They are refused as corrupt.
    @Test func arcsOutOfOrderOrWithoutTheirTriangleAreRefused() throws {
        let graph = Self.graphs[0].1
        let topology = CCHTopology(graph: graph)
        let low = try #require((0..<topology.nodeCount).first { topology.firstArc[$0 + 1] - topology.firstArc[$0] >= 2 })
        let first = Int(topology.firstArc[low])
        // arcHead follows the header (5 words), the order (n) and the arc index (n + 1).
        let offset = 4 * (5 + topology.nodeCount + topology.nodeCount + 1 + first)
        var swapped = topology.serialized()
        for byte in 0..<4 { swapped.swapAt(offset + byte, offset + 4 + byte) }
        #expect(throws: CCHTopologyError.corrupt("arcs out of order or a triangle without its third arc")) {
            try CCHTopology(serialized: swapped, for: graph)
        }
        // Two arcs to one node do not rise either.
        var untied = topology.serialized()
        untied.replaceSubrange(offset + 4..<offset + 8, with: untied[offset..<offset + 4])
        #expect(throws: CCHTopologyError.corrupt("arcs out of order or a triangle without its third arc")) {
            try CCHTopology(serialized: untied, for: graph)
        }
    }

    /// Any order gives exact answers (only speed depends on it): the identity order on a random graph.
    @Test func anyOrderIsExact() {
        let graph = TestGraphs.randomGeometric(nodes: 300, seed: 8)
        let topology = CCHTopology(graph: graph, order: (0..<UInt32(graph.nodeCount)).map { $0 })
        let metric = CCHMetric(topology: topology, graph: graph, weights: graph.edgeDurationMs)
        let query = CCHQuery(topology: topology)
        let dijkstra = Dijkstra(graph: graph)
        for (source, target) in TestGraphs.pairs(1_000, nodes: graph.nodeCount, seed: 6) {
            let found = query.shortestPath(from: [SearchSeed(node: UInt32(source))],
                                           to: [SearchSeed(node: UInt32(target))], metric: metric)
            #expect((found?.durationMs ?? unreachableMs) == dijkstra.distance(from: source, to: target, weights: graph.edgeDurationMs))
        }
    }

    /// Nested dissection keeps the elimination tree far shallower than the node count.
    @Test func nestedDissectionKeepsTheTreeShallow() {
        let graph = TestGraphs.grid(60, 60)
        let topology = CCHTopology(graph: graph)
        #expect(topology.eliminationTreeHeight < 400, "height \(topology.eliminationTreeHeight)")
    }
}
