/// Plain Dijkstra on a ``RoadGraph``: the reference the CCH answers are
/// tested and benchmarked against.
///
/// Searches take the per-edge weights as an argument (free-flow durations or
/// any customized metric, ``unreachableMs`` for closed edges), so one search
/// object serves every hour of the week. Scratch is allocated once; a search
/// resets only what it touched. One object per thread.
public final class Dijkstra {
    /// The graph searched.
    public let graph: RoadGraph
    private let heap: MinHeap
    private var distance: [UInt32]
    private var predecessorEdge: [UInt32]
    private var touched: [UInt32] = []

    /// Creates a search over `graph` with scratch for all its nodes.
    public init(graph: RoadGraph) {
        self.graph = graph
        heap = MinHeap(capacity: graph.nodeCount)
        distance = Array(repeating: unreachableMs, count: graph.nodeCount)
        predecessorEdge = Array(repeating: UInt32.max, count: graph.nodeCount)
    }

    /// Shortest travel time from any source seed to any target seed
    /// (seed offsets included), or `nil` when no target is reachable.
    ///
    /// The path's edges are returned in driving order; a route whose best
    /// source and target seeds are the same node has no edges.
    public func shortestPath(from sources: [SearchSeed], to targets: [SearchSeed], weights: [UInt32])
        -> (durationMs: UInt32, edges: [Int])?
    {
        reset()
        for seed in sources { relax(Int(seed.node), seed.offsetMs, edge: UInt32.max) }
        var best = unreachableMs
        var bestNode = -1
        var targetOffset = [Int: UInt32]()
        for seed in targets { targetOffset[Int(seed.node)] = min(targetOffset[Int(seed.node)] ?? .max, seed.offsetMs) }
        weights.withUnsafeBufferPointer { weights in
            while !heap.isEmpty {
                let (node, key) = heap.popMin()
                if key >= best { break }
                if let offset = targetOffset[node] {
                    let total = saturatingAdd(key, offset)
                    if total < best { best = total; bestNode = node }
                }
                settle(node, key, weights)
            }
        }
        guard bestNode >= 0 else { return nil }
        var edges: [Int] = []
        var node = bestNode
        while predecessorEdge[node] != UInt32.max {
            let edge = Int(predecessorEdge[node])
            edges.append(edge)
            node = tail(of: edge)
        }
        return (best, edges.reversed())
    }

    /// Shortest travel time from `source` to `target` in milliseconds,
    /// ``unreachableMs`` when there is none.
    public func distance(from source: Int, to target: Int, weights: [UInt32]) -> UInt32 {
        shortestPath(from: [SearchSeed(node: UInt32(source))], to: [SearchSeed(node: UInt32(target))],
                     weights: weights)?.durationMs ?? unreachableMs
    }

    /// Travel times from `source` to every node (one-to-all), ``unreachableMs``
    /// for nodes it cannot reach.
    public func distances(from source: Int, weights: [UInt32]) -> [UInt32] {
        reset()
        relax(source, 0, edge: UInt32.max)
        weights.withUnsafeBufferPointer { weights in
            while !heap.isEmpty {
                let (node, key) = heap.popMin()
                settle(node, key, weights)
            }
        }
        return distance
    }

    @inline(__always)
    private func settle(_ node: Int, _ key: UInt32, _ weights: UnsafeBufferPointer<UInt32>) {
        for edge in graph.edges(from: node) {
            let weight = weights[edge]
            guard weight != unreachableMs else { continue }
            relax(Int(graph.edgeHead[edge]), saturatingAdd(key, weight), edge: UInt32(edge))
        }
    }

    @inline(__always)
    private func relax(_ node: Int, _ candidate: UInt32, edge: UInt32) {
        guard candidate < distance[node] else { return }
        if distance[node] == unreachableMs { touched.append(UInt32(node)) }
        distance[node] = candidate
        predecessorEdge[node] = edge
        heap.insertOrDecrease(node, key: candidate)
    }

    private func reset() {
        for node in touched {
            distance[Int(node)] = unreachableMs
            predecessorEdge[Int(node)] = UInt32.max
        }
        touched.removeAll(keepingCapacity: true)
        heap.removeAll()
    }

    /// The node an edge leaves, by binary search over the row index.
    private func tail(of edge: Int) -> Int {
        var low = 0, high = graph.nodeCount
        while high - low > 1 {
            let middle = (low + high) / 2
            if Int(graph.firstEdge[middle]) <= edge { low = middle } else { high = middle }
        }
        return low
    }
}

@available(*, unavailable)
extension Dijkstra: Sendable {}
