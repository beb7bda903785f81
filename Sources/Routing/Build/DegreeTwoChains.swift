/// The road graph with its chains of degree-2 nodes taken out, for ordering:
/// the shape points of curved roads, most of an OSM graph's nodes, each
/// joined to exactly two others.
///
/// Contracting a node with two neighbours only joins those two, so the
/// chains go to the bottom of the contraction order at no cost in
/// shortcuts, and the nested dissection (the slow part of a build, growing
/// faster than the node count) only has to cut the **core**: the junctions
/// and dead ends (every node whose degree is not 2), joined where a chain or
/// an edge joins them, and one node of each cycle made only of degree-2
/// nodes. A city of a million nodes has a core of a few hundred thousand.
///
/// Each chain is ranked by bisection (its middle node highest, then the
/// middles of the two halves, and so on), so that the elimination tree
/// grows by only the logarithm of the chain's length below its ends.
struct DegreeTwoChains {
    /// The core's nodes, by core number.
    let coreNodes: [UInt32]
    /// The core graph, in core numbers.
    let coreAdjacency: UndirectedAdjacency
    /// Every chain node, lowest rank first (chain after chain, each in bisection order).
    let chainOrder: [UInt32]

    init(adjacency: UndirectedAdjacency, nodeCount: Int) {
        var coreNumber = [Int32](repeating: -1, count: nodeCount)
        var coreNodes: [UInt32] = []
        for node in 0..<nodeCount where adjacency.neighbours(of: node).count != 2 {
            coreNumber[node] = Int32(coreNodes.count)
            coreNodes.append(UInt32(node))
        }
        var inChain = [Bool](repeating: false, count: nodeCount)
        var pairs: [(UInt32, UInt32)] = []
        var chainOrder: [UInt32] = []
        chainOrder.reserveCapacity(nodeCount - coreNodes.count)
        var chain: [UInt32] = []

        /// Walks from core node `start` through `first` to the next core node,
        /// ranking the chain crossed unless it was walked from its other end.
        func walk(from start: UInt32, through first: UInt32) {
            guard coreNumber[Int(first)] < 0 else {
                pairs.append((UInt32(coreNumber[Int(start)]), UInt32(coreNumber[Int(first)])))
                return
            }
            guard !inChain[Int(first)] else { return }
            chain.removeAll(keepingCapacity: true)
            var previous = start, current = first
            while coreNumber[Int(current)] < 0 {
                inChain[Int(current)] = true
                chain.append(current)
                let slots = adjacency.neighbours(of: Int(current))
                let one = adjacency.neighbour[slots.lowerBound], other = adjacency.neighbour[slots.lowerBound + 1]
                (previous, current) = (current, one == previous ? other : one)
            }
            pairs.append((UInt32(coreNumber[Int(start)]), UInt32(coreNumber[Int(current)])))
            Self.appendBisection(chain[...], to: &chainOrder)
        }

        var walked = 0, strayCursor = 0
        while true {
            for core in coreNodes[walked...] {
                for slot in adjacency.neighbours(of: Int(core)) { walk(from: core, through: adjacency.neighbour[slot]) }
            }
            walked = coreNodes.count
            // Degree-2 nodes no walk reached lie on cycles without a core node: one node of each joins the core.
            while strayCursor < nodeCount && (coreNumber[strayCursor] >= 0 || inChain[strayCursor]) { strayCursor += 1 }
            guard strayCursor < nodeCount else { break }
            let stray = strayCursor
            coreNumber[stray] = Int32(coreNodes.count)
            coreNodes.append(UInt32(stray))
        }
        self.coreNodes = coreNodes
        self.chainOrder = chainOrder
        coreAdjacency = UndirectedAdjacency(nodeCount: coreNodes.count) { body in
            for (a, b) in pairs { body(a, b) }
        }
    }

    /// Appends `chain`'s nodes so that each range's middle comes after both of its halves.
    private static func appendBisection(_ chain: ArraySlice<UInt32>, to order: inout [UInt32]) {
        guard !chain.isEmpty else { return }
        let middle = chain.startIndex + chain.count / 2
        appendBisection(chain[chain.startIndex..<middle], to: &order)
        appendBisection(chain[(middle + 1)...], to: &order)
        order.append(chain[middle])
    }
}
