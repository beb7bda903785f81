/// One customization of a ``CCHTopology``: the upward and downward weight of
/// every arc for one set of edge weights (say, the durations of Tuesday 8–9).
///
/// Built by basic customization: original edges put their weight on their
/// arc (the smallest when several edges share one), then every lower
/// triangle `x < y < z` is relaxed bottom-up, `y → z` via `y → x → z` and
/// `z → y` via `z → x → y`. After that each arc weight is the shortest
/// path between its ends through lower-ranked nodes, which is all the
/// elimination-tree queries need. Each arc also remembers how its weight
/// came about (an original edge, or the middle node of its best triangle)
/// so paths can be unpacked, and the length in metres of that path, so
/// tables report metres without unpacking.
public struct CCHMetric: Sendable {
    /// Bit set in an unpacking entry when it names a triangle's middle rank
    /// rather than an original edge.
    static let shortcutBit: UInt32 = 1 << 31
    /// Unpacking entry of an arc with no path in that direction.
    static let noPath = UInt32.max

    /// The per-edge weights the metric was customized from (ms, ``unreachableMs`` for closed edges).
    public let edgeWeights: [UInt32]
    /// Weight of each arc from its lower to its higher end, in ms.
    public let upWeight: [UInt32]
    /// Weight of each arc from its higher to its lower end, in ms.
    public let downWeight: [UInt32]
    /// Length in metres of the path behind ``upWeight``.
    public let upLength: [Float]
    /// Length in metres of the path behind ``downWeight``.
    public let downLength: [Float]
    /// How ``upWeight`` came about: an original edge id, or ``shortcutBit`` | middle rank.
    let upUnpack: [UInt32]
    /// How ``downWeight`` came about, as ``upUnpack``.
    let downUnpack: [UInt32]

    /// Customizes `topology` for per-edge `weights` of `graph` (one per edge, in ms).
    /// - Precondition: `topology` was built for `graph` and `weights.count == graph.edgeCount`.
    public init(topology: CCHTopology, graph: RoadGraph, weights: [UInt32]) {
        precondition(weights.count == graph.edgeCount && topology.edgeArc.count == graph.edgeCount,
                     "one weight per edge of the topology's graph")
        let arcCount = topology.arcCount
        var upWeight = [UInt32](repeating: unreachableMs, count: arcCount)
        var downWeight = upWeight
        var upLength = [Float](repeating: 0, count: arcCount)
        var downLength = upLength
        var upUnpack = [UInt32](repeating: Self.noPath, count: arcCount)
        var downUnpack = upUnpack

        for edge in 0..<graph.edgeCount {
            let entry = topology.edgeArc[edge]
            let weight = weights[edge]
            guard entry != CCHTopology.noArc, weight != unreachableMs else { continue }
            let arc = Int(entry & ~CCHTopology.downwardBit)
            if entry & CCHTopology.downwardBit == 0 {
                if weight < upWeight[arc] {
                    upWeight[arc] = weight; upLength[arc] = graph.edgeLengthMetres[edge]; upUnpack[arc] = UInt32(edge)
                }
            } else if weight < downWeight[arc] {
                downWeight[arc] = weight; downLength[arc] = graph.edgeLengthMetres[edge]; downUnpack[arc] = UInt32(edge)
            }
        }

        topology.firstArc.withUnsafeBufferPointer { firstArc in
        topology.arcHead.withUnsafeBufferPointer { arcHead in
        upWeight.withUnsafeMutableBufferPointer { up in
        downWeight.withUnsafeMutableBufferPointer { down in
        upLength.withUnsafeMutableBufferPointer { upLength in
        downLength.withUnsafeMutableBufferPointer { downLength in
        upUnpack.withUnsafeMutableBufferPointer { upUnpack in
        downUnpack.withUnsafeMutableBufferPointer { downUnpack in
            for lowest in 0..<topology.nodeCount {
                let end = Int(firstArc[lowest + 1])
                let middleTag = Self.shortcutBit | UInt32(lowest)
                for toY in Int(firstArc[lowest])..<end {
                    // Arcs lowest→y (toY) and lowest→z (toZ) with y < z close the triangle on y→z.
                    let y = Int(arcHead[toY])
                    let yDown = down[toY], yUp = up[toY]
                    if yDown == unreachableMs && yUp == unreachableMs { continue }
                    var yz = Int(firstArc[y])
                    let yEnd = Int(firstArc[y + 1])
                    for toZ in (toY + 1)..<end {
                        let z = arcHead[toZ]
                        yz = Self.position(of: z, in: arcHead, from: yz, before: yEnd)
                        let viaUp = UInt64(yDown) + UInt64(up[toZ])
                        if viaUp < UInt64(up[yz]) {
                            up[yz] = UInt32(viaUp)
                            upLength[yz] = downLength[toY] + upLength[toZ]
                            upUnpack[yz] = middleTag
                        }
                        let viaDown = UInt64(down[toZ]) + UInt64(yUp)
                        if viaDown < UInt64(down[yz]) {
                            down[yz] = UInt32(viaDown)
                            downLength[yz] = downLength[toZ] + upLength[toY]
                            downUnpack[yz] = middleTag
                        }
                    }
                }
            }
        }}}}}}}}

        self.edgeWeights = weights
        self.upWeight = upWeight
        self.downWeight = downWeight
        self.upLength = upLength
        self.downLength = downLength
        self.upUnpack = upUnpack
        self.downUnpack = downUnpack
    }

    /// The position of `head` among the ascending arc heads from `start`
    /// to before `end`, where it is: a node's upward arcs often outnumber
    /// those of the lower node whose triangles are closed on them, so the
    /// search gallops (1, 2, 4, … ahead) and then halves, instead of
    /// stepping over every arc in between.
    @inline(__always)
    static func position(of head: UInt32, in arcHead: UnsafeBufferPointer<UInt32>, from start: Int, before end: Int) -> Int {
        if arcHead[start] == head { return start }
        var low = start, step = 1
        while low + step < end && arcHead[low + step] < head {
            low += step
            step <<= 1
        }
        var high = min(low + step, end - 1)
        while low + 1 < high {
            let middle = (low + high) >> 1
            if arcHead[middle] < head { low = middle } else { high = middle }
        }
        return high
    }
}
