import Dispatch

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
        self.init(topology: topology, graph: graph, weights: weights, split: topology.customizationSplit)
    }

    /// Customizes as ``init(topology:graph:weights:)``, sharing the triangles between threads as `split` says.
    init(topology: CCHTopology, graph: RoadGraph, weights: [UInt32], split: CustomizationSplit) {
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
        split.spineArcStart.withUnsafeBufferPointer { spineArcStart in
        upWeight.withUnsafeMutableBufferPointer { up in
        downWeight.withUnsafeMutableBufferPointer { down in
        upLength.withUnsafeMutableBufferPointer { upLength in
        downLength.withUnsafeMutableBufferPointer { downLength in
        upUnpack.withUnsafeMutableBufferPointer { upUnpack in
        downUnpack.withUnsafeMutableBufferPointer { downUnpack in
            let tree = ArcList(firstArc: firstArc, arcHead: arcHead, spineArcStart: spineArcStart)
            let shared = ArcWeights(up: up, down: down, upLength: upLength, downLength: downLength, upUnpack: upUnpack,
                                    downUnpack: downUnpack, firstArc: 0)
            let copies = split.parts.map { _ in SpineCopy(of: shared, spine: split.spine, count: split.spineArcCount, in: tree) }
            DispatchQueue.concurrentPerform(iterations: copies.count) { part in
                Self.relaxTriangles(of: split.parts[part], in: tree, arcs: shared, spineCopy: copies[part].weights)
            }
            for copy in copies { copy.merge(into: shared) }
            Self.relaxTriangles(of: split.spine, in: tree, arcs: shared, spineCopy: nil)
        }}}}}}}}}

        self.edgeWeights = weights
        self.upWeight = upWeight
        self.downWeight = downWeight
        self.upLength = upLength
        self.downLength = downLength
        self.upUnpack = upUnpack
        self.downUnpack = downUnpack
    }

    /// Relaxes the lower triangles of each rank of `ranks`, in ascending
    /// order, whose own arcs are final: `y → z` via `y → lowest → z` and
    /// `z → y` via `z → lowest → y`, for every two upward neighbours
    /// `y < z` of `lowest`. The arcs of the spine's ranks are written in
    /// `spineCopy` when given (a thread's own copy, ``CustomizationSplit``),
    /// every other arc in `arcs`.
    private static func relaxTriangles(of ranks: [UInt32], in tree: ArcList, arcs: ArcWeights, spineCopy: ArcWeights?) {
        let (firstArc, arcHead) = (tree.firstArc, tree.arcHead)
        let (up, down, upLength, downLength) = (arcs.up, arcs.down, arcs.upLength, arcs.downLength)
        for rank in ranks {
            let lowest = Int(rank)
            let end = Int(firstArc[lowest + 1])
            let middleTag = Self.shortcutBit | UInt32(lowest)
            for toY in Int(firstArc[lowest])..<end {
                // Arcs lowest→y (toY) and lowest→z (toZ) with y < z close the triangle on y→z.
                let y = Int(arcHead[toY])
                let yDown = down[toY], yUp = up[toY]
                if yDown == unreachableMs && yUp == unreachableMs { continue }
                var target = arcs
                if let spineCopy, case let start = tree.spineArcStart[y], start >= 0 {
                    target = spineCopy.starting(at: Int(firstArc[y]) - Int(start))
                }
                var yz = Int(firstArc[y])
                let yEnd = Int(firstArc[y + 1])
                for toZ in (toY + 1)..<end {
                    let z = arcHead[toZ]
                    yz = Self.position(of: z, in: arcHead, from: yz, before: yEnd)
                    let at = yz - target.firstArc
                    let viaUp = UInt64(yDown) + UInt64(up[toZ])
                    if viaUp < UInt64(target.up[at]) {
                        target.up[at] = UInt32(viaUp)
                        target.upLength[at] = downLength[toY] + upLength[toZ]
                        target.upUnpack[at] = middleTag
                    }
                    let viaDown = UInt64(down[toZ]) + UInt64(yUp)
                    if viaDown < UInt64(target.down[at]) {
                        target.down[at] = UInt32(viaDown)
                        target.downLength[at] = downLength[toZ] + upLength[toY]
                        target.downUnpack[at] = middleTag
                    }
                }
            }
        }
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

/// The topology's arcs, read by every thread of a customization, and
/// where each spine rank's arcs lie in a copy (``CustomizationSplit``).
private struct ArcList: @unchecked Sendable {
    let firstArc: UnsafeBufferPointer<UInt32>
    let arcHead: UnsafeBufferPointer<UInt32>
    let spineArcStart: UnsafeBufferPointer<Int32>
}

/// The weights, lengths and unpacking entries of arcs, arc ``firstArc`` at
/// index 0, as the triangle relaxation writes them. Threads share one only
/// to write disjoint arcs (``CustomizationSplit``).
private struct ArcWeights: @unchecked Sendable {
    let up: UnsafeMutableBufferPointer<UInt32>
    let down: UnsafeMutableBufferPointer<UInt32>
    let upLength: UnsafeMutableBufferPointer<Float>
    let downLength: UnsafeMutableBufferPointer<Float>
    let upUnpack: UnsafeMutableBufferPointer<UInt32>
    let downUnpack: UnsafeMutableBufferPointer<UInt32>
    /// The arc at index 0.
    let firstArc: Int

    /// The same buffers with arc `firstArc` at index 0.
    @inline(__always)
    func starting(at firstArc: Int) -> ArcWeights {
        ArcWeights(up: up, down: down, upLength: upLength, downLength: downLength, upUnpack: upUnpack,
                   downUnpack: downUnpack, firstArc: firstArc)
    }
}

/// One thread's own copy of the spine's arcs (``CustomizationSplit``),
/// each spine rank's arcs together, in rank order.
private final class SpineCopy: @unchecked Sendable {
    let weights: ArcWeights
    private let spine: [UInt32]
    private let tree: ArcList

    /// A copy of the arcs of the ranks of `spine` (`count` in all) from `shared`.
    init(of shared: ArcWeights, spine: [UInt32], count: Int, in tree: ArcList) {
        func copy<T>(_ source: UnsafeMutableBufferPointer<T>) -> UnsafeMutableBufferPointer<T> {
            let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: count)
            for rank in spine {
                let arcs = Int(tree.firstArc[Int(rank)])..<Int(tree.firstArc[Int(rank) + 1])
                let start = Int(tree.spineArcStart[Int(rank)])
                _ = UnsafeMutableBufferPointer(rebasing: buffer[start..<(start + arcs.count)]).initialize(from: source[arcs])
            }
            return buffer
        }
        weights = ArcWeights(up: copy(shared.up), down: copy(shared.down), upLength: copy(shared.upLength),
                             downLength: copy(shared.downLength), upUnpack: copy(shared.upUnpack),
                             downUnpack: copy(shared.downUnpack), firstArc: 0)
        self.spine = spine
        self.tree = tree
    }

    deinit {
        weights.up.deallocate(); weights.down.deallocate()
        weights.upLength.deallocate(); weights.downLength.deallocate()
        weights.upUnpack.deallocate(); weights.downUnpack.deallocate()
    }

    /// Keeps in `shared` the better of its weight and the copy's, for each spine arc and direction.
    func merge(into shared: ArcWeights) {
        for rank in spine {
            let start = Int(tree.spineArcStart[Int(rank)])
            for arc in Int(tree.firstArc[Int(rank)])..<Int(tree.firstArc[Int(rank) + 1]) {
                let at = start + arc - Int(tree.firstArc[Int(rank)])
                if weights.up[at] < shared.up[arc] {
                    shared.up[arc] = weights.up[at]; shared.upLength[arc] = weights.upLength[at]
                    shared.upUnpack[arc] = weights.upUnpack[at]
                }
                if weights.down[at] < shared.down[arc] {
                    shared.down[arc] = weights.down[at]; shared.downLength[arc] = weights.downLength[at]
                    shared.downUnpack[arc] = weights.downUnpack[at]
                }
            }
        }
    }
}
