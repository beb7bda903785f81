extension CCHMetric {
    /// Above this share of changed edges, ``updated(to:topology:graph:triangles:)``
    /// declines: the arcs they reach are then most of the topology, and a
    /// full customization, shared between threads, is faster.
    static let maxUpdatedEdgeFraction = 0.02

    /// The metric for edge `weights`, worked out from this one by
    /// recomputing only the arcs the changed edges can reach: what speeds
    /// learned in the last minutes need, a few hundred streets changed in a
    /// city of millions of edges, without the seconds a full customization takes.
    ///
    /// Each changed edge's arc is recomputed from its edges and its lower
    /// triangles; when its weight, length or unpacking changes, the arcs
    /// whose triangles it closes are recomputed in turn, lowest first, so
    /// every arc is recomputed after all it is made of. The result is the
    /// metric a full customization gives (the same weights; on ties, the
    /// path one thread would pick).
    /// - Returns: nil when more than ``maxUpdatedEdgeFraction`` of the edges changed.
    /// - Precondition: this metric and `triangles` belong to `topology`, built for `graph`.
    func updated(to weights: [UInt32], topology: CCHTopology, graph: RoadGraph,
                 triangles: CCHLowerTriangles) -> CCHMetric? {
        precondition(weights.count == edgeWeights.count, "one weight per edge of the metric's graph")
        var queue = ArcQueue()
        var changedEdges = 0
        let maxChangedEdges = Int(Double(weights.count) * Self.maxUpdatedEdgeFraction)
        for edge in weights.indices where weights[edge] != edgeWeights[edge] {
            changedEdges += 1
            if changedEdges > maxChangedEdges { return nil }
            let entry = topology.edgeArc[edge]
            if entry == CCHTopology.noArc { continue }
            let arc = entry & ~CCHTopology.downwardBit
            queue.push(arc: arc, tail: triangles.arcTail[Int(arc)])
        }

        var arcs = ArcWeightArrays(of: self)
        var last: UInt64?
        while let next = queue.pop() {
            if next == last { continue }
            last = next
            let arc = Int(UInt32(truncatingIfNeeded: next))
            let recomputed = Self.recompute(arc: arc, weights: weights, topology: topology, graph: graph,
                                            triangles: triangles, arcs: arcs)
            if recomputed == arcs[arc] { continue }
            arcs[arc] = recomputed
            // Every arc x → z closes a triangle on the arc between y and z.
            let x = Int(triangles.arcTail[arc]), y = topology.arcHead[arc]
            for toZ in Int(topology.firstArc[x])..<Int(topology.firstArc[x + 1]) where topology.arcHead[toZ] != y {
                let z = topology.arcHead[toZ]
                let (low, high) = (min(y, z), max(y, z))
                let closed = CCHTopology.findArc(firstArc: topology.firstArc, arcHead: topology.arcHead, low: Int(low), high: high)
                queue.push(arc: UInt32(closed), tail: low)
            }
        }
        return CCHMetric(edgeWeights: weights, upWeight: arcs.up, downWeight: arcs.down, upLength: arcs.upLength,
                         downLength: arcs.downLength, upUnpack: arcs.upUnpack, downUnpack: arcs.downUnpack)
    }

    /// Arc `arc` worked out afresh, as a full customization would: the
    /// lightest of its edges each way, then each lower triangle in
    /// ascending order of its lowest rank, a lighter path replacing a heavier one.
    private static func recompute(arc: Int, weights: [UInt32], topology: CCHTopology, graph: RoadGraph,
                                  triangles: CCHLowerTriangles, arcs: ArcWeightArrays) -> ArcWeight {
        var result = ArcWeight.none
        for slot in Int(triangles.firstArcEdge[arc])..<Int(triangles.firstArcEdge[arc + 1]) {
            let edge = Int(triangles.arcEdge[slot])
            let weight = weights[edge]
            guard weight != unreachableMs else { continue }
            if topology.edgeArc[edge] & CCHTopology.downwardBit == 0 {
                if weight < result.up { (result.up, result.upLength, result.upUnpack) = (weight, graph.edgeLengthMetres[edge], UInt32(edge)) }
            } else if weight < result.down {
                (result.down, result.downLength, result.downUnpack) = (weight, graph.edgeLengthMetres[edge], UInt32(edge))
            }
        }
        // The lower triangles: ranks w with arcs w → x and w → y, in both ends' lower arcs.
        let x = Int(triangles.arcTail[arc]), y = Int(topology.arcHead[arc])
        var toX = Int(triangles.firstLowerArc[x]), toY = Int(triangles.firstLowerArc[y])
        let toXEnd = Int(triangles.firstLowerArc[x + 1]), toYEnd = Int(triangles.firstLowerArc[y + 1])
        while toX < toXEnd && toY < toYEnd {
            let wx = Int(triangles.lowerArc[toX]), wy = Int(triangles.lowerArc[toY])
            let w = triangles.arcTail[wx], wOther = triangles.arcTail[wy]
            if w < wOther { toX += 1; continue }
            if wOther < w { toY += 1; continue }
            toX += 1; toY += 1
            let xDown = arcs.down[wx], xUp = arcs.up[wx]
            if xDown == unreachableMs && xUp == unreachableMs { continue }
            let middleTag = shortcutBit | w
            let viaUp = UInt64(xDown) + UInt64(arcs.up[wy])
            if viaUp < UInt64(result.up) {
                (result.up, result.upLength, result.upUnpack) = (UInt32(viaUp), arcs.downLength[wx] + arcs.upLength[wy], middleTag)
            }
            let viaDown = UInt64(arcs.down[wy]) + UInt64(xUp)
            if viaDown < UInt64(result.down) {
                (result.down, result.downLength, result.downUnpack) = (UInt32(viaDown), arcs.downLength[wy] + arcs.upLength[wx], middleTag)
            }
        }
        return result
    }
}

/// One arc's weights, lengths and unpacking entries, both ways.
private struct ArcWeight: Equatable {
    var up: UInt32, down: UInt32
    var upLength: Float, downLength: Float
    var upUnpack: UInt32, downUnpack: UInt32

    /// An arc with no path either way, as a customization starts it.
    static let none = ArcWeight(up: unreachableMs, down: unreachableMs, upLength: 0, downLength: 0,
                                upUnpack: CCHMetric.noPath, downUnpack: CCHMetric.noPath)
}

/// A metric's per-arc arrays, copied to be updated.
private struct ArcWeightArrays {
    var up: [UInt32], down: [UInt32]
    var upLength: [Float], downLength: [Float]
    var upUnpack: [UInt32], downUnpack: [UInt32]

    init(of metric: CCHMetric) {
        (up, down) = (metric.upWeight, metric.downWeight)
        (upLength, downLength) = (metric.upLength, metric.downLength)
        (upUnpack, downUnpack) = (metric.upUnpack, metric.downUnpack)
    }

    subscript(arc: Int) -> ArcWeight {
        get {
            ArcWeight(up: up[arc], down: down[arc], upLength: upLength[arc], downLength: downLength[arc],
                      upUnpack: upUnpack[arc], downUnpack: downUnpack[arc])
        }
        set {
            (up[arc], down[arc]) = (newValue.up, newValue.down)
            (upLength[arc], downLength[arc]) = (newValue.upLength, newValue.downLength)
            (upUnpack[arc], downUnpack[arc]) = (newValue.upUnpack, newValue.downUnpack)
        }
    }
}

/// The arcs waiting to be recomputed, lowest lower end first: a binary
/// min-heap of the lower end and the arc packed in one number, so an arc
/// queued twice comes out twice in a row.
private struct ArcQueue {
    private var heap: [UInt64] = []

    mutating func push(arc: UInt32, tail: UInt32) {
        heap.append(UInt64(tail) << 32 | UInt64(arc))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child] < heap[parent] else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> UInt64? {
        guard let top = heap.first else { return nil }
        let last = heap.removeLast()
        guard !heap.isEmpty else { return top }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < heap.count && heap[left] < heap[smallest] { smallest = left }
            if right < heap.count && heap[right] < heap[smallest] { smallest = right }
            guard smallest != parent else { return top }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
