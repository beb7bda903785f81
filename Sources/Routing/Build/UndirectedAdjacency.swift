/// The road graph with directions dropped: each pair of nodes joined by an
/// edge either way appears once in each node's neighbour list, without
/// self-loops, in CSR form.
///
/// The node order and the CCH contraction only care whether two nodes are
/// adjacent; the direction and the weight come back in customization.
struct UndirectedAdjacency {
    /// Start of each node's neighbours; `nodeCount + 1` entries.
    let first: [UInt32]
    /// Neighbour ids, ascending within each node's range.
    let neighbour: [UInt32]

    init(graph: RoadGraph) {
        self.init(nodeCount: graph.nodeCount) { body in
            for tail in 0..<graph.nodeCount {
                for edge in graph.edges(from: tail) { body(UInt32(tail), graph.edgeHead[edge]) }
            }
        }
    }

    /// The adjacency of `nodeCount` nodes joined by the pairs `forEachPair`
    /// hands to its argument (twice over: once to count, once to fill).
    init(nodeCount: Int, forEachPair: ((UInt32, UInt32) -> Void) -> Void) {
        var degree = [UInt32](repeating: 0, count: nodeCount + 1)
        forEachPair { a, b in
            guard a != b else { return }
            degree[Int(a)] += 1
            degree[Int(b)] += 1
        }
        var start = [UInt32](repeating: 0, count: nodeCount + 1)
        for node in 0..<nodeCount { start[node + 1] = start[node] + degree[node] }
        var fill = start
        var raw = [UInt32](repeating: 0, count: Int(start[nodeCount]))
        forEachPair { a, b in
            guard a != b else { return }
            raw[Int(fill[Int(a)])] = b; fill[Int(a)] += 1
            raw[Int(fill[Int(b)])] = a; fill[Int(b)] += 1
        }
        var first = [UInt32](repeating: 0, count: nodeCount + 1)
        var neighbour: [UInt32] = []
        neighbour.reserveCapacity(raw.count / 2)
        for node in 0..<nodeCount {
            let row = raw[Int(start[node])..<Int(start[node + 1])].sorted()
            var previous = UInt32.max
            for other in row where other != previous {
                neighbour.append(other)
                previous = other
            }
            first[node + 1] = UInt32(neighbour.count)
        }
        self.first = first
        self.neighbour = neighbour
    }

    /// Positions of `node`'s neighbours in ``neighbour``.
    @inline(__always)
    func neighbours(of node: Int) -> Range<Int> { Int(first[node])..<Int(first[node + 1]) }
}
