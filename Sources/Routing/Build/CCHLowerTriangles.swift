/// What recomputing one CCH arc on its own needs, which the topology alone
/// does not give quickly: each arc's lower end, the arcs that reach each
/// rank from below, and the original edges that lie on each arc.
///
/// A ``CCHMetric`` update (``CCHMetric/updated(to:topology:graph:triangles:)``)
/// recomputes an arc `x → y` from its edges and its lower triangles, the
/// ranks `w < x` with arcs to both ends; they are the ranks the two ends'
/// lower arcs have in common. Built once per topology, in one pass over its
/// arcs and one over the graph's edges.
struct CCHLowerTriangles: Sendable {
    /// The lower end (rank) of each arc.
    let arcTail: [UInt32]
    /// Where each rank's lower arcs start in ``lowerArc``; one entry per rank plus one.
    let firstLowerArc: [UInt32]
    /// The arcs reaching each rank from below, in ascending order of their lower end.
    let lowerArc: [UInt32]
    /// Where each arc's edges start in ``arcEdge``; one entry per arc plus one.
    let firstArcEdge: [UInt32]
    /// The original edges lying on each arc (either way), ascending.
    let arcEdge: [UInt32]

    /// The index of `topology`'s arcs and of its graph's edges on them.
    init(topology: CCHTopology) {
        let nodeCount = topology.nodeCount, arcCount = topology.arcCount
        var arcTail = [UInt32](repeating: 0, count: arcCount)
        var firstLowerArc = [UInt32](repeating: 0, count: nodeCount + 1)
        for tail in 0..<nodeCount {
            for arc in Int(topology.firstArc[tail])..<Int(topology.firstArc[tail + 1]) {
                arcTail[arc] = UInt32(tail)
                firstLowerArc[Int(topology.arcHead[arc]) + 1] += 1
            }
        }
        for rank in 0..<nodeCount { firstLowerArc[rank + 1] += firstLowerArc[rank] }
        // Tails ascend over the arcs, so each rank's lower arcs come in ascending order of their lower end.
        var nextLowerArc = firstLowerArc
        var lowerArc = [UInt32](repeating: 0, count: arcCount)
        for arc in 0..<arcCount {
            let head = Int(topology.arcHead[arc])
            lowerArc[Int(nextLowerArc[head])] = UInt32(arc)
            nextLowerArc[head] += 1
        }

        var firstArcEdge = [UInt32](repeating: 0, count: arcCount + 1)
        for entry in topology.edgeArc where entry != CCHTopology.noArc {
            firstArcEdge[Int(entry & ~CCHTopology.downwardBit) + 1] += 1
        }
        for arc in 0..<arcCount { firstArcEdge[arc + 1] += firstArcEdge[arc] }
        var nextArcEdge = firstArcEdge
        var arcEdge = [UInt32](repeating: 0, count: Int(firstArcEdge[arcCount]))
        for (edge, entry) in topology.edgeArc.enumerated() where entry != CCHTopology.noArc {
            let arc = Int(entry & ~CCHTopology.downwardBit)
            arcEdge[Int(nextArcEdge[arc])] = UInt32(edge)
            nextArcEdge[arc] += 1
        }

        self.arcTail = arcTail
        self.firstLowerArc = firstLowerArc
        self.lowerArc = lowerArc
        self.firstArcEdge = firstArcEdge
        self.arcEdge = arcEdge
    }
}
