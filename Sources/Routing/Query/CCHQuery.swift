/// Point-to-point shortest paths on a customized CCH by elimination-tree search.
///
/// The forward search walks up the elimination tree from the source seeds
/// and relaxes every upward arc with its upward weight; the backward search
/// walks up from the target seeds with downward weights. No priority queue
/// is needed: a node's ancestors are visited in rank order and every arc
/// leads to an ancestor, so a distance is final when its node is reached.
/// The answer is the best node where the two searches meet; the backward
/// search stops relaxing from nodes already at or beyond that answer.
///
/// The search carries travel times only; the metres of the answer are
/// summed afterwards along the two predecessor chains through the meeting
/// node, in the order a search carrying them would have added them, so they
/// are the same to the bit at a fraction of the cost.
///
/// The object holds the scratch of one search (distance, length and
/// predecessor for every rank, reset after each query by walking the chains
/// it visited), so a query allocates only its result. One object per
/// thread; the same object answers tables (`CCHQuery+Table.swift`).
public final class CCHQuery {
    /// The topology searched.
    public let topology: CCHTopology
    let forward: SearchSpace
    let backward: SearchSpace
    private var cursors: [UInt32] = []
    private var backwardCursors: [UInt32] = []
    private var unpackStack: [(low: UInt32, high: UInt32, upward: Bool)] = []
    private var chainNodes: [UInt32] = []
    /// Per rank, for table sweeps: best travel time and its length (sized on first use).
    var sweepDistance: [UInt32] = []
    var sweepLength: [Float] = []

    /// Creates a query object with scratch for every rank of `topology`.
    public init(topology: CCHTopology) {
        self.topology = topology
        forward = SearchSpace(count: topology.nodeCount)
        backward = SearchSpace(count: topology.nodeCount)
        unpackStack.reserveCapacity(256)
    }

    /// The result of a point-to-point query.
    public struct Result: Sendable, Equatable {
        /// Travel time in ms, seed offsets included.
        public var durationMs: UInt32
        /// Length in metres of that path, seed offsets included.
        public var lengthMetres: Float
        /// The source seed's node (original id) the path leaves from.
        public var sourceNode: UInt32
        /// The target seed's node (original id) the path arrives at.
        public var targetNode: UInt32
        /// The original edges driven, in order; empty when the source and
        /// target node are the same. Filled only when asked for.
        public var edges: [Int]
    }

    /// Shortest path from any source seed to any target seed under `metric`,
    /// or `nil` when none is reachable.
    /// - Parameter unpack: fill ``Result/edges`` (walks down the shortcuts; costs about as much as the search).
    public func shortestPath(from sources: [SearchSeed], to targets: [SearchSeed], metric: CCHMetric,
                             unpack: Bool = false) -> Result? {
        defer { forward.reset(); backward.reset() }
        var best = unreachableMs
        var meet = -1
        seed(forward, with: sources, cursors: &cursors)
        seed(backward, with: targets, cursors: &backwardCursors)
        metric.upWeight.withUnsafeBufferPointer { up in
        metric.downWeight.withUnsafeBufferPointer { down in
        topology.parent.withUnsafeBufferPointer { parent in
            // Both chains in one ascending walk, so the answer found where they
            // first meet prunes the relaxations of the (dense) top of the tree.
            while true {
                let lowestForward = Self.lowest(cursors), lowestBackward = Self.lowest(backwardCursors)
                let node = min(lowestForward, lowestBackward)
                guard node != UInt32.max else { return }
                let forwardDistance = forward.distance[Int(node)], backwardDistance = backward.distance[Int(node)]
                let total = UInt64(forwardDistance) + UInt64(backwardDistance)
                if total < UInt64(best) { best = UInt32(total); meet = Int(node) }
                if lowestForward == node {
                    Self.advance(&cursors, past: node, parent: parent)
                    forward.visited.append(node)
                    if forwardDistance < best { relaxDuration(forward, from: Int(node), weights: up) }
                }
                if lowestBackward == node {
                    Self.advance(&backwardCursors, past: node, parent: parent)
                    backward.visited.append(node)
                    if backwardDistance < best { relaxDuration(backward, from: Int(node), weights: down) }
                }
            }
        }}}
        guard meet >= 0 else { return nil }
        var edges: [Int] = []
        if unpack { unpackPath(meet: meet, metric: metric, into: &edges) }
        let source = chain(forward, to: meet, lengths: metric.upLength)
        let target = chain(backward, to: meet, lengths: metric.downLength)
        return Result(durationMs: best, lengthMetres: source.metres + target.metres,
                      sourceNode: topology.nodeAtRank[source.bottom],
                      targetNode: topology.nodeAtRank[target.bottom], edges: edges)
    }

    /// Puts the seeds into `space` and makes their ranks the chain cursors.
    func seed(_ space: SearchSpace, with seeds: [SearchSeed], cursors: inout [UInt32]) {
        cursors.removeAll(keepingCapacity: true)
        for seed in seeds {
            let node = Int(topology.rank[Int(seed.node)])
            if seed.offsetMs < space.distance[node] {
                space.distance[node] = seed.offsetMs
                space.length[node] = seed.offsetMetres
            }
            cursors.append(UInt32(node))
        }
    }

    /// The lowest rank among the chain cursors, `UInt32.max` when all chains are done.
    @inline(__always)
    static func lowest(_ cursors: [UInt32]) -> UInt32 {
        var lowest = UInt32.max
        for cursor in cursors where cursor < lowest { lowest = cursor }
        return lowest
    }

    /// Moves every cursor at `node` to its parent; chains that meet merge.
    @inline(__always)
    static func advance(_ cursors: inout [UInt32], past node: UInt32, parent: UnsafeBufferPointer<UInt32>) {
        for index in cursors.indices where cursors[index] == node { cursors[index] = parent[Int(node)] }
    }

    /// Relaxes the upward arcs of rank `node` in `space` with `weights`, carrying `lengths`.
    @inline(__always)
    func relax(_ space: SearchSpace, from node: Int, weights: UnsafeBufferPointer<UInt32>,
               lengths: UnsafeBufferPointer<Float>) {
        let here = space.distance[node], hereLength = space.length[node]
        let distance = space.distance
        topology.firstArc.withUnsafeBufferPointer { firstArc in
        topology.arcHead.withUnsafeBufferPointer { arcHead in
            for arc in Int(firstArc[node])..<Int(firstArc[node + 1]) {
                let candidate = UInt64(here) + UInt64(weights[arc])
                let head = Int(arcHead[arc])
                if candidate < UInt64(distance[head]) {
                    distance[head] = UInt32(candidate)
                    space.length[head] = hereLength + lengths[arc]
                    space.predecessor[head] = UInt32(node)
                }
            }
        }}
    }

    /// Relaxes the upward arcs of rank `node` in `space` with `weights`, travel times only.
    @inline(__always)
    func relaxDuration(_ space: SearchSpace, from node: Int, weights: UnsafeBufferPointer<UInt32>) {
        let here = space.distance[node]
        let distance = space.distance, predecessor = space.predecessor
        topology.firstArc.withUnsafeBufferPointer { firstArc in
        topology.arcHead.withUnsafeBufferPointer { arcHead in
            for arc in Int(firstArc[node])..<Int(firstArc[node + 1]) {
                let candidate = UInt64(here) + UInt64(weights[arc])
                let head = Int(arcHead[arc])
                if candidate < UInt64(distance[head]) {
                    distance[head] = UInt32(candidate)
                    predecessor[head] = UInt32(node)
                }
            }
        }}
    }

    /// Elimination-tree search in `space` from `seeds`: visits the union of
    /// the seeds' ancestor chains in ascending rank, each rank once, relaxing
    /// its upward arcs with `weights`. Tables use it for their single endpoint.
    func search(_ space: SearchSpace, from seeds: [SearchSeed], weights: UnsafeBufferPointer<UInt32>,
                lengths: UnsafeBufferPointer<Float>) {
        seed(space, with: seeds, cursors: &cursors)
        topology.parent.withUnsafeBufferPointer { parent in
            while true {
                let node = Self.lowest(cursors)
                guard node != UInt32.max else { return }
                Self.advance(&cursors, past: node, parent: parent)
                space.visited.append(node)
                if space.distance[Int(node)] != unreachableMs {
                    relax(space, from: Int(node), weights: weights, lengths: lengths)
                }
            }
        }
    }

    /// The seed rank `space`'s predecessor chain through `node` starts from,
    /// and the metres along it: the seed's offset (which ``seed(_:with:cursors:)``
    /// left in `space.length`) plus each arc's length in `lengths`, added from
    /// the seed upwards as a search carrying lengths would have added them.
    private func chain(_ space: SearchSpace, to node: Int,
                       lengths: [Float]) -> (bottom: Int, metres: Float) {
        chainNodes.removeAll(keepingCapacity: true)
        var node = node
        while space.predecessor[node] != UInt32.max {
            chainNodes.append(UInt32(node))
            node = Int(space.predecessor[node])
        }
        var metres = space.length[node]
        var lower = node
        for higher in chainNodes.reversed() {
            let arc = CCHTopology.findArc(firstArc: topology.firstArc, arcHead: topology.arcHead,
                                          low: lower, high: higher)
            metres += lengths[arc]
            lower = Int(higher)
        }
        return (node, metres)
    }

    /// Appends the original edges of the path through `meet`, in driving order.
    private func unpackPath(meet: Int, metric: CCHMetric, into edges: inout [Int]) {
        // Forward half: collect the arcs bottom-up, then unpack them source first.
        unpackStack.removeAll(keepingCapacity: true)
        var node = meet
        while forward.predecessor[node] != UInt32.max {
            let lower = forward.predecessor[node]
            unpackStack.append((lower, UInt32(node), true))
            node = Int(lower)
        }
        let forwardArcs = Array(unpackStack.reversed())
        for arc in forwardArcs { unpack(arc, metric: metric, into: &edges) }
        node = meet
        while backward.predecessor[node] != UInt32.max {
            let lower = backward.predecessor[node]
            unpack((lower, UInt32(node), false), metric: metric, into: &edges)
            node = Int(lower)
        }
    }

    /// Appends the original edges of one arc in one direction (`upward`: low → high).
    private func unpack(_ arc: (low: UInt32, high: UInt32, upward: Bool), metric: CCHMetric,
                        into edges: inout [Int]) {
        unpackStack.removeAll(keepingCapacity: true)
        unpackStack.append(arc)
        while let (low, high, upward) = unpackStack.popLast() {
            let id = CCHTopology.findArc(firstArc: topology.firstArc, arcHead: topology.arcHead,
                                         low: Int(low), high: high)
            let entry = upward ? metric.upUnpack[id] : metric.downUnpack[id]
            if entry & CCHMetric.shortcutBit == 0 {
                edges.append(Int(entry))
                continue
            }
            let middle = entry & ~CCHMetric.shortcutBit
            // low → high is low → middle → high: down(middle, low) then up(middle, high);
            // high → low is down(middle, high) then up(middle, low). Push the second leg first.
            if upward {
                unpackStack.append((middle, high, true))
                unpackStack.append((middle, low, false))
            } else {
                unpackStack.append((middle, low, true))
                unpackStack.append((middle, high, false))
            }
        }
    }
}

@available(*, unavailable)
extension CCHQuery: Sendable {}

/// The per-rank scratch of one search direction: tentative travel time,
/// carried length and predecessor rank, plus the ranks touched so a reset
/// costs only what the search visited.
final class SearchSpace {
    let distance: UnsafeMutableBufferPointer<UInt32>
    let length: UnsafeMutableBufferPointer<Float>
    let predecessor: UnsafeMutableBufferPointer<UInt32>
    var visited: [UInt32] = []

    init(count: Int) {
        distance = .allocate(capacity: max(count, 1)); distance.initialize(repeating: unreachableMs)
        length = .allocate(capacity: max(count, 1)); length.initialize(repeating: 0)
        predecessor = .allocate(capacity: max(count, 1)); predecessor.initialize(repeating: UInt32.max)
        visited.reserveCapacity(1024)
    }

    deinit {
        distance.deallocate(); length.deallocate(); predecessor.deallocate()
    }

    /// Restores the visited ranks to "unreached".
    func reset() {
        for node in visited {
            distance[Int(node)] = unreachableMs
            length[Int(node)] = 0
            predecessor[Int(node)] = UInt32.max
        }
        visited.removeAll(keepingCapacity: true)
    }
}
