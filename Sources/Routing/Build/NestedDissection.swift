import Foundation
import GeoKit

/// A nested-dissection node order computed from node coordinates, the order
/// a ``CCHTopology`` contracts in.
///
/// Each cell of the graph is split by a straight line through its median
/// (the best of four directions, 0°, 45°, 90° and 135°, on a local
/// equirectangular projection); the smaller side of the cut edges' endpoints
/// becomes the vertex separator and takes the cell's highest ranks, and the
/// two halves are ordered the same way. Disconnected parts of a cell are
/// ordered apart without a separator. Small separators near the top keep the
/// elimination tree shallow, which is what makes CCH queries fast on city
/// grids. Cells are kept on an explicit stack, so no recursion depth limit
/// applies.
public enum NestedDissection {
    /// Cells of at most this many nodes are ranked as they are.
    public static let defaultLeafSize = 8

    /// The contraction order: `result[rank]` is the original node id with that rank.
    public static func order(graph: RoadGraph, leafSize: Int = defaultLeafSize) -> [UInt32] {
        order(adjacency: UndirectedAdjacency(graph: graph), coordinates: graph.coordinates,
              leafSize: max(leafSize, 2))
    }

    static func order(adjacency: UndirectedAdjacency, coordinates: [Coordinate], leafSize: Int) -> [UInt32] {
        let nodeCount = coordinates.count
        guard nodeCount > 0 else { return [] }
        var dissector = Dissector(adjacency: adjacency, coordinates: coordinates)
        var cells: [(low: Int, high: Int)] = [(0, nodeCount)]
        while let cell = cells.popLast() {
            guard cell.high - cell.low > leafSize else { continue }
            cells.append(contentsOf: dissector.split(low: cell.low, high: cell.high))
        }
        return dissector.permutation
    }
}

/// The working state of one nested dissection: the permutation being built,
/// in which every cell is a contiguous range whose start is its id.
private struct Dissector {
    let adjacency: UndirectedAdjacency
    /// Projected positions in metres; one array per axis.
    let x: [Float], y: [Float]
    /// Node ids; cells are ranges of it, separators sit at the end of their cell.
    var permutation: [UInt32]
    /// The cell (its start in `permutation`) each node is in; -1 once placed in a separator.
    var cellOf: [Int32]
    /// 0 or 1: the side of the trial cut; 2: in the separator.
    var side: [UInt8]
    var queue: [UInt32] = []
    var keyed: [(key: Float, node: UInt32)] = []

    init(adjacency: UndirectedAdjacency, coordinates: [Coordinate]) {
        self.adjacency = adjacency
        let meanLatitude = coordinates.reduce(0) { $0 + $1.latitude } / Double(coordinates.count)
        let metresPerDegree = Coordinate.earthRadiusMetres * .pi / 180
        let xScale = metresPerDegree * cos(meanLatitude * .pi / 180)
        x = coordinates.map { Float($0.longitude * xScale) }
        y = coordinates.map { Float($0.latitude * metresPerDegree) }
        permutation = (0..<UInt32(coordinates.count)).map { $0 }
        cellOf = Array(repeating: 0, count: coordinates.count)
        side = Array(repeating: 0, count: coordinates.count)
    }

    /// Splits the cell `low..<high` and returns its sub-cells (the separator is final).
    mutating func split(low: Int, high: Int) -> [(low: Int, high: Int)] {
        let componentSize = firstComponentSize(low: low, high: high)
        if componentSize < high - low {
            // `queue` holds the first component; move it to the front.
            for node in queue { side[Int(node)] = 1 }
            partitionComponent(low: low, high: high, split: low + componentSize)
            return [(low, low + componentSize), (low + componentSize, high)]
        }
        var bestDirection = 0
        var bestSize = Int.max
        for direction in 0..<4 {
            let size = trialSeparator(low: low, high: high, direction: direction)
            if size < bestSize { bestSize = size; bestDirection = direction }
        }
        _ = trialSeparator(low: low, high: high, direction: bestDirection)
        let nodes = Array(permutation[low..<high])
        var cursor = low
        var starts = [low, low, low]
        for wanted in [UInt8(0), 1, 2] {
            starts[Int(wanted)] = cursor
            for node in nodes where side[Int(node)] == wanted {
                permutation[cursor] = node
                cellOf[Int(node)] = wanted == 2 ? -1 : Int32(starts[Int(wanted)])
                side[Int(node)] = 0
                cursor += 1
            }
        }
        return [(low, starts[1]), (starts[1], starts[2])]
    }

    /// Size of the connected component of the cell's first node; leaves its nodes in `queue`.
    private mutating func firstComponentSize(low: Int, high: Int) -> Int {
        let cell = Int32(low)
        queue.removeAll(keepingCapacity: true)
        queue.append(permutation[low])
        cellOf[Int(permutation[low])] = -2
        var head = 0
        while head < queue.count {
            let node = Int(queue[head]); head += 1
            for slot in adjacency.neighbours(of: node) {
                let other = Int(adjacency.neighbour[slot])
                if cellOf[other] == cell {
                    cellOf[other] = -2
                    queue.append(UInt32(other))
                }
            }
        }
        for node in queue { cellOf[Int(node)] = cell }
        return queue.count
    }

    /// Moves the nodes marked `side == 1` to `low..<split` and the rest to `split..<high`.
    private mutating func partitionComponent(low: Int, high: Int, split: Int) {
        let nodes = Array(permutation[low..<high])
        var front = low, back = split
        for node in nodes {
            if side[Int(node)] == 1 {
                permutation[front] = node; front += 1
                cellOf[Int(node)] = Int32(low)
            } else {
                permutation[back] = node; back += 1
                cellOf[Int(node)] = Int32(split)
            }
            side[Int(node)] = 0
        }
    }

    /// Marks `side` for a median cut of the cell along `direction` (0..<4, 45° steps)
    /// and returns the separator size it leads to.
    private mutating func trialSeparator(low: Int, high: Int, direction: Int) -> Int {
        let (cosine, sine): (Float, Float) = [(1, 0), (0.7071, 0.7071), (0, 1), (-0.7071, 0.7071)][direction]
        keyed.removeAll(keepingCapacity: true)
        for node in permutation[low..<high] {
            keyed.append((x[Int(node)] * cosine + y[Int(node)] * sine, node))
        }
        keyed.sort { $0.key < $1.key }
        let half = keyed.count / 2
        for (index, entry) in keyed.enumerated() { side[Int(entry.node)] = index < half ? 0 : 1 }
        // Boundary nodes on each side of the cut.
        let cell = Int32(low)
        var boundary = (0, 0)
        for node in permutation[low..<high] where isBoundary(Int(node), cell: cell) {
            if side[Int(node)] == 0 { boundary.0 += 1 } else { boundary.1 += 1 }
        }
        let separatorSide: UInt8 = boundary.0 <= boundary.1 ? 0 : 1
        for node in permutation[low..<high]
        where side[Int(node)] == separatorSide && isBoundary(Int(node), cell: cell) {
            side[Int(node)] = 2
        }
        return min(boundary.0, boundary.1)
    }

    /// True when `node` has a neighbour in the same cell on the other side of the trial cut.
    @inline(__always)
    private func isBoundary(_ node: Int, cell: Int32) -> Bool {
        let mine = side[node]
        for slot in adjacency.neighbours(of: node) {
            let other = Int(adjacency.neighbour[slot])
            if cellOf[other] == cell && side[other] != mine && side[other] != 2 { return true }
        }
        return false
    }
}
