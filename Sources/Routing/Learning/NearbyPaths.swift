/// The shortest paths by length from one node to the nodes within a
/// distance of it, for the map matcher: between two fixes 30 s apart a taxi
/// drove at most a few hundred metres, so the search stops there and costs
/// a few hundred nodes, not the city.
///
/// One object per thread; its arrays are sized to the graph once and only
/// the entries a search touched are reset before the next.
final class NearbyPaths {
    private let graph: RoadGraph
    private let edgeTail: [UInt32]
    private let heap: MinHeap
    /// Decimetres from the source, `UInt32.max` when not reached.
    private var reached: [UInt32]
    /// The edge a node was reached by, -1 for the source.
    private var parentEdge: [Int32]
    private var touched: [Int32] = []
    private(set) var source = -1

    /// A search object for `graph`, whose edges leave the nodes `edgeTail` gives.
    init(graph: RoadGraph, edgeTail: [UInt32]) {
        self.graph = graph
        self.edgeTail = edgeTail
        heap = MinHeap(capacity: graph.nodeCount)
        reached = [UInt32](repeating: .max, count: graph.nodeCount)
        parentEdge = [Int32](repeating: -1, count: graph.nodeCount)
    }

    /// Searches from `node` along open edges, to every node within `limitMetres`.
    func search(from node: Int, limitMetres: Double) {
        for touchedNode in touched { reached[Int(touchedNode)] = .max; parentEdge[Int(touchedNode)] = -1 }
        touched.removeAll(keepingCapacity: true)
        heap.removeAll()
        source = node
        let limit = UInt32(min(limitMetres * 10, Double(UInt32.max - 1)))
        reached[node] = 0
        touched.append(Int32(node))
        heap.insertOrDecrease(node, key: 0)
        while !heap.isEmpty {
            let (tail, distance) = heap.popMin()
            for edge in graph.edges(from: tail) where graph.edgeDurationMs[edge] != unreachableMs {
                let head = Int(graph.edgeHead[edge])
                let next = distance + UInt32((graph.edgeLengthMetres[edge] * 10).rounded())
                guard next <= limit, next < reached[head] else { continue }
                if reached[head] == .max { touched.append(Int32(head)) }
                reached[head] = next
                parentEdge[head] = Int32(edge)
                heap.insertOrDecrease(head, key: next)
            }
        }
    }

    /// Metres from the last search's source to `node`, nil when beyond its limit.
    func metres(to node: Int) -> Double? {
        reached[node] == .max ? nil : Double(reached[node]) / 10
    }

    /// The edges from the last search's source to `node`, in driving order.
    func edges(to node: Int) -> [Int] {
        var path: [Int] = []
        var current = node
        while parentEdge[current] >= 0 {
            let edge = Int(parentEdge[current])
            path.append(edge)
            current = Int(edgeTail[edge])
        }
        return path.reversed()
    }
}
