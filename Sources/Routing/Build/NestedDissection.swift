import Foundation
import GeoKit

/// A nested-dissection node order computed from the graph and its node
/// coordinates, the order a ``CCHTopology`` contracts in.
///
/// Each connected cell is cut by ``InertialFlowSeparator`` (a minimum vertex
/// cut between the two ends of the cell along the best of four directions);
/// the separator takes the cell's highest ranks and the two halves are
/// ordered the same way. Disconnected parts of a cell are ordered apart
/// without a separator. Small separators near the top keep the elimination
/// tree shallow, which is what makes CCH queries fast. Cells are kept on an
/// explicit stack, so no recursion depth limit applies.
///
/// Only the core of the graph is dissected: chains of degree-2 nodes (shape
/// points) are ranked below it, each by bisection (``DegreeTwoChains``),
/// which cuts the time of ordering a city of a million OSM nodes several
/// times over without adding shortcuts.
public enum NestedDissection {
    /// Cells of at most this many nodes are ranked as they are.
    public static let defaultLeafSize = 8

    /// The contraction order: `result[rank]` is the original node id with that rank.
    public static func order(graph: RoadGraph, leafSize: Int = defaultLeafSize) -> [UInt32] {
        order(adjacency: UndirectedAdjacency(graph: graph), coordinates: graph.coordinates,
              leafSize: max(leafSize, 2))
    }

    static func order(adjacency: UndirectedAdjacency, coordinates: [Coordinate], leafSize: Int) -> [UInt32] {
        let chains = DegreeTwoChains(adjacency: adjacency, nodeCount: coordinates.count)
        let coreOrder = dissect(adjacency: chains.coreAdjacency, coordinates: chains.coreNodes.map { coordinates[Int($0)] },
                                leafSize: leafSize)
        return chains.chainOrder + coreOrder.map { chains.coreNodes[Int($0)] }
    }

    /// The nested-dissection order of every node of `adjacency`.
    private static func dissect(adjacency: UndirectedAdjacency, coordinates: [Coordinate], leafSize: Int) -> [UInt32] {
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
    /// Finds each connected cell's separator.
    var separator: InertialFlowSeparator
    var adjacency: UndirectedAdjacency { separator.adjacency }
    /// Node ids; cells are ranges of it, separators sit at the end of their cell.
    var permutation: [UInt32]
    /// The cell (its start in `permutation`) each node is in; -1 once placed in a separator.
    var cellOf: [Int32]
    /// 1 for the nodes of the component moved to the front of a disconnected cell.
    var side: [UInt8]
    var queue: [UInt32] = []

    init(adjacency: UndirectedAdjacency, coordinates: [Coordinate]) {
        separator = InertialFlowSeparator(adjacency: adjacency, coordinates: coordinates)
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
        let nodes = Array(permutation[low..<high])
        _ = separator.separate(nodes)
        var cursor = low
        var starts = [low, low, low]
        for wanted in [InertialFlowSeparator.sourceSide, InertialFlowSeparator.sinkSide,
                       InertialFlowSeparator.separator] {
            starts[Int(wanted)] = cursor
            for node in nodes where separator.label[Int(node)] == wanted {
                permutation[cursor] = node
                cellOf[Int(node)] = wanted == InertialFlowSeparator.separator ? -1 : Int32(starts[Int(wanted)])
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
}
