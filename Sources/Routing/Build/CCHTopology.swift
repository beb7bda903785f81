/// The metric-independent half of a customizable contraction hierarchy:
/// the node order, the chordal supergraph's upward arcs and the elimination
/// tree, all in rank space.
///
/// Built once per road graph (nested-dissection order, then contraction of
/// the undirected graph), stored next to it (``serialized()``), and shared
/// by every metric: time-of-day profiles and live speeds only change the
/// weights a ``CCHMetric`` puts on these arcs. Every arc goes from a lower to
/// a higher rank and carries two weights, upward (low → high) and downward
/// (high → low). A node's upward neighbours are all ancestors of it in the
/// elimination tree and form a clique; customization's triangle enumeration
/// and the elimination-tree queries rely on both.
public struct CCHTopology: Sendable, Equatable {
    /// Arc marker for original edges that are self-loops and map to no arc.
    public static let noArc = UInt32.max
    /// Bit set in ``edgeArc`` when the edge runs downward (high → low rank).
    public static let downwardBit: UInt32 = 1 << 31

    /// Rank of each original node.
    public let rank: [UInt32]
    /// Original node at each rank; the inverse of ``rank``.
    public let nodeAtRank: [UInt32]
    /// Start of each rank's upward arcs; `nodeCount + 1` entries.
    public let firstArc: [UInt32]
    /// Higher endpoint (a rank) of each arc, ascending within a rank's range.
    public let arcHead: [UInt32]
    /// Elimination-tree parent of each rank (its lowest upward neighbour),
    /// `UInt32.max` for roots.
    public let parent: [UInt32]
    /// The arc each original edge lies on, ``downwardBit`` set when it runs
    /// from the higher rank to the lower; ``noArc`` for self-loops.
    public let edgeArc: [UInt32]
    /// How customization shares its work between threads.
    let customizationSplit: CustomizationSplit

    /// Number of nodes (ranks).
    public var nodeCount: Int { rank.count }
    /// Number of arcs of the chordal supergraph.
    public var arcCount: Int { arcHead.count }

    /// Orders `graph` by ``NestedDissection`` and contracts it.
    public init(graph: RoadGraph) {
        let adjacency = UndirectedAdjacency(graph: graph)
        let order = NestedDissection.order(adjacency: adjacency, coordinates: graph.coordinates,
                                           leafSize: NestedDissection.defaultLeafSize)
        self.init(graph: graph, adjacency: adjacency, order: order)
    }

    /// Contracts `graph` in the given order (`order[rank]` = original node).
    /// - Precondition: `order` is a permutation of the graph's nodes.
    public init(graph: RoadGraph, order: [UInt32]) {
        self.init(graph: graph, adjacency: UndirectedAdjacency(graph: graph), order: order)
    }

    init(rank: [UInt32], nodeAtRank: [UInt32], firstArc: [UInt32], arcHead: [UInt32],
         parent: [UInt32], edgeArc: [UInt32]) {
        self.rank = rank
        self.nodeAtRank = nodeAtRank
        self.firstArc = firstArc
        self.arcHead = arcHead
        self.parent = parent
        self.edgeArc = edgeArc
        customizationSplit = CustomizationSplit(parent: parent, firstArc: firstArc, partCount: 2)
    }

    private init(graph: RoadGraph, adjacency: UndirectedAdjacency, order: [UInt32]) {
        let nodeCount = graph.nodeCount
        precondition(order.count == nodeCount, "order must rank every node")
        var rank = [UInt32](repeating: UInt32.max, count: nodeCount)
        for (position, node) in order.enumerated() { rank[Int(node)] = UInt32(position) }
        precondition(!rank.contains(UInt32.max), "order must be a permutation")

        // Eliminate in rank order: a node's upward neighbours are its own
        // higher neighbours plus those of its elimination-tree children.
        var firstArc = [UInt32](repeating: 0, count: nodeCount + 1)
        var arcHead: [UInt32] = []
        arcHead.reserveCapacity(adjacency.neighbour.count * 4)
        var parent = [UInt32](repeating: UInt32.max, count: nodeCount)
        var firstChild = [UInt32](repeating: UInt32.max, count: nodeCount)
        var nextSibling = [UInt32](repeating: UInt32.max, count: nodeCount)
        var seen = [UInt32](repeating: UInt32.max, count: nodeCount)
        var row: [UInt32] = []
        for current in 0..<nodeCount {
            row.removeAll(keepingCapacity: true)
            seen[current] = UInt32(current)
            let node = Int(order[current])
            for slot in adjacency.neighbours(of: node) {
                let other = rank[Int(adjacency.neighbour[slot])]
                if other > current && seen[Int(other)] != UInt32(current) {
                    seen[Int(other)] = UInt32(current)
                    row.append(other)
                }
            }
            var child = firstChild[current]
            while child != UInt32.max {
                for arc in Int(firstArc[Int(child)])..<Int(firstArc[Int(child) + 1]) {
                    let other = arcHead[arc]
                    if seen[Int(other)] != UInt32(current) {
                        seen[Int(other)] = UInt32(current)
                        row.append(other)
                    }
                }
                child = nextSibling[Int(child)]
            }
            row.sort()
            arcHead.append(contentsOf: row)
            firstArc[current + 1] = UInt32(arcHead.count)
            if let lowest = row.first {
                parent[current] = lowest
                nextSibling[current] = firstChild[Int(lowest)]
                firstChild[Int(lowest)] = UInt32(current)
            }
        }

        var edgeArc = [UInt32](repeating: Self.noArc, count: graph.edgeCount)
        for tail in 0..<nodeCount {
            for edge in graph.edges(from: tail) {
                let from = rank[tail], to = rank[Int(graph.edgeHead[edge])]
                if from == to { continue }
                let (low, high) = (min(from, to), max(from, to))
                let arc = Self.findArc(firstArc: firstArc, arcHead: arcHead, low: Int(low), high: high)
                edgeArc[edge] = UInt32(arc) | (from > to ? Self.downwardBit : 0)
            }
        }
        self.init(rank: rank, nodeAtRank: order, firstArc: firstArc, arcHead: arcHead,
                  parent: parent, edgeArc: edgeArc)
    }

    /// The arc from rank `low` up to rank `high`, by binary search; -1 when absent.
    @inline(__always)
    static func findArc(firstArc: UnsafeBufferPointer<UInt32>, arcHead: UnsafeBufferPointer<UInt32>,
                        low: Int, high: UInt32) -> Int {
        var lower = Int(firstArc[low]), upper = Int(firstArc[low + 1])
        while lower < upper {
            let middle = (lower + upper) >> 1
            if arcHead[middle] < high { lower = middle + 1 } else { upper = middle }
        }
        return lower < Int(firstArc[low + 1]) && arcHead[lower] == high ? lower : -1
    }

    static func findArc(firstArc: [UInt32], arcHead: [UInt32], low: Int, high: UInt32) -> Int {
        firstArc.withUnsafeBufferPointer { first in
            arcHead.withUnsafeBufferPointer { heads in
                findArc(firstArc: first, arcHead: heads, low: low, high: high)
            }
        }
    }

    /// Height of the elimination tree (nodes on its longest root path): the
    /// worst-case number of nodes one upward search visits.
    public var eliminationTreeHeight: Int {
        var depth = [UInt32](repeating: 1, count: nodeCount)
        var height = 0
        for node in stride(from: nodeCount - 1, through: 0, by: -1) {
            if parent[node] != UInt32.max { depth[node] = depth[Int(parent[node])] + 1 }
            height = max(height, Int(depth[node]))
        }
        return height
    }
}
