import Foundation
import GeoKit

/// Splits a connected cell of the road graph into two halves and a vertex
/// separator by inertial flow (Schild and Sommer 2015).
///
/// For each of four directions (0°, 45°, 90°, 135° on a local
/// equirectangular projection) the cell's nodes are sorted by their
/// projection; the first quarter become sources, the last quarter sinks, and
/// a minimum vertex cut between them is found as a maximum flow with unit
/// node capacities (every node split into an in and an out half, edges of
/// unbounded capacity, augmenting paths by breadth-first search). The
/// smallest cut of the four wins, the more balanced one on a tie. Unlike a
/// straight median line, the cut follows the graph's own bottlenecks
/// (bridges, parks, rail lines), so separators are much smaller and the
/// elimination tree lower; the quarters at either end keep both halves at
/// least about a quarter of the cell.
struct InertialFlowSeparator {
    /// ``label`` of a node on the sources' side of the cut.
    static let sourceSide: UInt8 = 0
    /// ``label`` of a node on the sinks' side of the cut.
    static let sinkSide: UInt8 = 1
    /// ``label`` of a separator node.
    static let separator: UInt8 = 2

    /// Share of the cell, at each end of the projection, that becomes sources or sinks.
    private static let terminalShare = 0.25
    /// ``flowFrom`` marker: no flow passes through the node.
    private static let noFlow: Int32 = -1
    /// ``flowFrom`` marker: the node's flow comes straight from the super source.
    private static let fromSource: Int32 = -2

    let adjacency: UndirectedAdjacency
    /// Projected positions in metres; one array per axis.
    private let x: [Float], y: [Float]
    /// The side of the best cut, per node of the last cell passed to ``separate(_:)``.
    private(set) var label: [UInt8]
    /// `cellStamp` for the nodes of the cell being cut.
    private var member: [UInt32]
    private var cellStamp: UInt32 = 0
    /// Per node of the cell: 0, or ``sourceRole`` / ``sinkRole`` for the current direction.
    private var role: [UInt8]
    /// Per node: the neighbour its unit of flow comes from, ``noFlow`` or ``fromSource``.
    private var flowFrom: [Int32]
    /// Per split state (`2 × node` in-half, `+ 1` out-half): `generation` once reached.
    private var seen: [UInt32]
    /// Per split state: the state it was reached from, -1 for the super source.
    private var reachedFrom: [Int32]
    private var generation: UInt32 = 0
    private var queue: [Int32] = []
    private var path: [Int32] = []
    private var sources: [UInt32] = []
    private var keyed: [(key: Float, node: UInt32)] = []
    private var candidate: [UInt8] = []
    private var best: [UInt8] = []

    private static let sourceRole: UInt8 = 1
    private static let sinkRole: UInt8 = 2

    init(adjacency: UndirectedAdjacency, coordinates: [Coordinate]) {
        self.adjacency = adjacency
        let count = coordinates.count
        let meanLatitude = coordinates.reduce(0) { $0 + $1.latitude } / Double(max(count, 1))
        let metresPerDegree = Coordinate.earthRadiusMetres * .pi / 180
        let xScale = metresPerDegree * cos(meanLatitude * .pi / 180)
        x = coordinates.map { Float($0.longitude * xScale) }
        y = coordinates.map { Float($0.latitude * metresPerDegree) }
        label = Array(repeating: 0, count: count)
        member = Array(repeating: 0, count: count)
        role = Array(repeating: 0, count: count)
        flowFrom = Array(repeating: Self.noFlow, count: count)
        seen = Array(repeating: 0, count: 2 * count)
        reachedFrom = Array(repeating: -1, count: 2 * count)
    }

    /// Cuts the connected cell `nodes` (at least two nodes) and sets ``label``
    /// for each of them; returns the separator size.
    mutating func separate(_ nodes: [UInt32]) -> Int {
        cellStamp &+= 1
        if cellStamp == 0 {
            for index in member.indices { member[index] = 0 }
            cellStamp = 1
        }
        for node in nodes { member[Int(node)] = cellStamp }
        var bestCut = Int.max, bestBalance = -1
        for direction in 0..<4 {
            guard let cut = minimumCut(nodes, direction: direction, limit: bestCut) else { continue }
            candidate.removeAll(keepingCapacity: true)
            var sizes = (0, 0)
            for node in nodes {
                let side = reachedSide(of: Int(node))
                candidate.append(side)
                if side == Self.sourceSide { sizes.0 += 1 } else if side == Self.sinkSide { sizes.1 += 1 }
            }
            let balance = min(sizes.0, sizes.1)
            if cut < bestCut || (cut == bestCut && balance > bestBalance) {
                bestCut = cut; bestBalance = balance
                swap(&best, &candidate)
            }
        }
        for (index, node) in nodes.enumerated() { label[Int(node)] = best[index] }
        return bestCut
    }

    /// The maximum flow (= minimum vertex cut) from the first to the last
    /// quarter of `nodes` along `direction`, or `nil` once it exceeds `limit`.
    /// Leaves the final search's marks for ``reachedSide(of:)``.
    private mutating func minimumCut(_ nodes: [UInt32], direction: Int, limit: Int) -> Int? {
        let (cosine, sine): (Float, Float) = [(1, 0), (0.7071, 0.7071), (0, 1), (-0.7071, 0.7071)][direction]
        keyed.removeAll(keepingCapacity: true)
        for node in nodes {
            keyed.append((x[Int(node)] * cosine + y[Int(node)] * sine, node))
            flowFrom[Int(node)] = Self.noFlow
            role[Int(node)] = 0
        }
        keyed.sort { $0.key < $1.key }
        let terminals = max(1, Int(Double(nodes.count) * Self.terminalShare))
        sources.removeAll(keepingCapacity: true)
        for entry in keyed.prefix(terminals) {
            role[Int(entry.node)] = Self.sourceRole
            sources.append(entry.node)
        }
        for entry in keyed.suffix(terminals) { role[Int(entry.node)] = Self.sinkRole }
        var flow = 0
        while augment() {
            flow += 1
            if flow > limit { return nil }
        }
        return flow
    }

    /// One breadth-first search for an augmenting path in the residual
    /// split graph; pushes a unit along it and returns true, or returns false
    /// and leaves the reachable states marked.
    private mutating func augment() -> Bool {
        generation &+= 1
        if generation == 0 {
            for index in seen.indices { seen[index] = 0 }
            generation = 1
        }
        queue.removeAll(keepingCapacity: true)
        for source in sources {
            let state = Int32(source) << 1
            seen[Int(state)] = generation
            reachedFrom[Int(state)] = -1
            queue.append(state)
        }
        var head = 0
        while head < queue.count {
            let state = queue[head]; head += 1
            let node = Int(state >> 1)
            let through = flowFrom[node]
            if state & 1 == 0 {
                // In-half: on to the out-half if the node is free, else back along its incoming flow.
                if through == Self.noFlow {
                    visit(state | 1, from: state)
                } else if through >= 0 {
                    visit(through << 1 | 1, from: state)
                }
                continue
            }
            if role[node] == Self.sinkRole {
                push(endingAt: state)
                return true
            }
            if through != Self.noFlow { visit(state & ~1, from: state) }
            for slot in adjacency.neighbours(of: node) {
                let other = adjacency.neighbour[slot]
                if member[Int(other)] == cellStamp { visit(Int32(other) << 1, from: state) }
            }
        }
        return false
    }

    @inline(__always)
    private mutating func visit(_ state: Int32, from previous: Int32) {
        guard seen[Int(state)] != generation else { return }
        seen[Int(state)] = generation
        reachedFrom[Int(state)] = previous
        queue.append(state)
    }

    /// Pushes one unit from the super source to the sink out-half `end`:
    /// first cancels the flow the path runs against, then adds its forward edges.
    private mutating func push(endingAt end: Int32) {
        path.removeAll(keepingCapacity: true)
        var state = end
        while state >= 0 {
            path.append(state)
            state = reachedFrom[Int(state)]
        }
        path.reverse()
        for index in 1..<path.count {
            let previous = path[index - 1], next = path[index]
            // In-half of w back to out-half of u ≠ w: cancel the flow u → w.
            if previous & 1 == 0 && next & 1 == 1 && previous >> 1 != next >> 1 {
                flowFrom[Int(previous >> 1)] = Self.noFlow
            }
        }
        flowFrom[Int(path[0] >> 1)] = Self.fromSource
        for index in 1..<path.count {
            let previous = path[index - 1], next = path[index]
            // Out-half of u to in-half of w ≠ u: flow u → w.
            if previous & 1 == 1 && next & 1 == 0 && previous >> 1 != next >> 1 {
                flowFrom[Int(next >> 1)] = previous >> 1
            }
        }
    }

    /// The side of `node` after the last, failed search: out-half reached is
    /// the sources' side, only the in-half reached is the cut.
    private func reachedSide(of node: Int) -> UInt8 {
        if seen[2 * node + 1] == generation { return Self.sourceSide }
        if seen[2 * node] == generation { return Self.separator }
        return Self.sinkSide
    }
}
