/// Errors reading a stored ``CCHTopology``.
public enum CCHTopologyError: Error, Equatable, CustomStringConvertible {
    /// The bytes do not start with the topology magic number and version.
    case notATopology
    /// The bytes end before the arrays their header announces.
    case truncated(expectedBytes: Int, actualBytes: Int)
    /// The topology was built for a graph with other node or edge counts.
    case graphMismatch(nodes: Int, edges: Int, graphNodes: Int, graphEdges: Int)
    /// An array holds a value outside its range (corrupt section).
    case corrupt(String)

    public var description: String {
        switch self {
        case .notATopology: "not a CCH topology section (bad magic or version)"
        case let .truncated(expected, actual): "CCH topology truncated: \(actual) of \(expected) bytes"
        case let .graphMismatch(nodes, edges, graphNodes, graphEdges):
            "CCH topology is for \(nodes) nodes/\(edges) edges, the graph has \(graphNodes)/\(graphEdges)"
        case let .corrupt(what): "corrupt CCH topology: \(what)"
        }
    }
}

extension CCHTopology {
    /// "CCHT" then format version 1, little-endian.
    static let magic: UInt32 = 0x5448_4343
    static let formatVersion: UInt32 = 1

    /// The topology as bytes, for an extra section of the graph file.
    ///
    /// Layout (all little-endian `UInt32`): magic, version, node count, edge
    /// count, arc count, then `nodeAtRank`, `firstArc`, `arcHead`, `parent`,
    /// `edgeArc`. The ranks are the inverse of `nodeAtRank` and are not stored.
    public func serialized() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(4 * (5 + 3 * nodeCount + 1 + arcCount + edgeArc.count))
        for word in [Self.magic, Self.formatVersion, UInt32(nodeCount), UInt32(edgeArc.count), UInt32(arcCount)] {
            append(word, to: &bytes)
        }
        for array in [nodeAtRank, firstArc, arcHead, parent, edgeArc] {
            for word in array { append(word, to: &bytes) }
        }
        return bytes
    }

    /// Reads a topology written by ``serialized()`` and checks it against the graph it belongs to.
    /// - Throws: ``CCHTopologyError`` when the bytes are not a topology, are
    ///   cut short, belong to another graph or hold out-of-range values.
    public init(serialized bytes: [UInt8], for graph: RoadGraph) throws {
        var reader = WordReader(bytes: bytes)
        guard bytes.count >= 20, reader.next() == Self.magic, reader.next() == Self.formatVersion else {
            throw CCHTopologyError.notATopology
        }
        let nodes = Int(reader.next()), edges = Int(reader.next()), arcs = Int(reader.next())
        guard nodes == graph.nodeCount, edges == graph.edgeCount else {
            throw CCHTopologyError.graphMismatch(nodes: nodes, edges: edges,
                                                 graphNodes: graph.nodeCount, graphEdges: graph.edgeCount)
        }
        let expected = 4 * (5 + nodes + (nodes + 1) + arcs + nodes + edges)
        guard bytes.count == expected else {
            throw CCHTopologyError.truncated(expectedBytes: expected, actualBytes: bytes.count)
        }
        let nodeAtRank = reader.next(nodes), firstArc = reader.next(nodes + 1)
        let arcHead = reader.next(arcs), parent = reader.next(nodes), edgeArc = reader.next(edges)

        var rank = [UInt32](repeating: UInt32.max, count: nodes)
        for (position, node) in nodeAtRank.enumerated() {
            guard Int(node) < nodes, rank[Int(node)] == UInt32.max else {
                throw CCHTopologyError.corrupt("node order is not a permutation")
            }
            rank[Int(node)] = UInt32(position)
        }
        guard firstArc.first == 0, firstArc.last == UInt32(arcs),
              zip(firstArc, firstArc.dropFirst()).allSatisfy({ $0 <= $1 }) else {
            throw CCHTopologyError.corrupt("arc index is not monotone")
        }
        for low in 0..<nodes {
            for arc in Int(firstArc[low])..<Int(firstArc[low + 1]) where Int(arcHead[arc]) <= low || Int(arcHead[arc]) >= nodes {
                throw CCHTopologyError.corrupt("arc \(arc) does not lead upward")
            }
        }
        guard Self.closesEveryTriangle(nodes: nodes, firstArc: firstArc, arcHead: arcHead) else {
            throw CCHTopologyError.corrupt("arcs out of order or a triangle without its third arc")
        }
        guard parent.enumerated().allSatisfy({ $1 == UInt32.max || (Int($1) > $0 && Int($1) < nodes) }),
              edgeArc.allSatisfy({ $0 == Self.noArc || Int($0 & ~Self.downwardBit) < arcs }) else {
            throw CCHTopologyError.corrupt("parent or edge arc out of range")
        }
        self.init(rank: rank, nodeAtRank: nodeAtRank, firstArc: firstArc, arcHead: arcHead,
                  parent: parent, edgeArc: edgeArc)
    }

    /// Whether each node's upward arcs rise in head order and every two of
    /// them, to `y` and to `z` above `y`, have the arc `y → z` that closes
    /// their triangle: what a contraction gives, and what customizing a
    /// metric (``CCHMetric``) walks without a bounds check. A file whose
    /// arcs broke it read memory beyond the arrays (found by the graph-file
    /// fuzz target). Costs about one customization.
    static func closesEveryTriangle(nodes: Int, firstArc: [UInt32], arcHead: [UInt32]) -> Bool {
        for low in 0..<nodes {
            let end = Int(firstArc[low + 1])
            for toY in Int(firstArc[low])..<end {
                if toY + 1 < end, arcHead[toY] >= arcHead[toY + 1] { return false }
                let y = Int(arcHead[toY]), yEnd = Int(firstArc[y + 1])
                var yz = Int(firstArc[y])
                for toZ in (toY + 1)..<end {
                    while yz < yEnd, arcHead[yz] < arcHead[toZ] { yz += 1 }
                    guard yz < yEnd, arcHead[yz] == arcHead[toZ] else { return false }
                }
            }
        }
        return true
    }

    private func append(_ word: UInt32, to bytes: inout [UInt8]) {
        bytes.append(UInt8(truncatingIfNeeded: word))
        bytes.append(UInt8(truncatingIfNeeded: word >> 8))
        bytes.append(UInt8(truncatingIfNeeded: word >> 16))
        bytes.append(UInt8(truncatingIfNeeded: word >> 24))
    }
}

/// Reads little-endian `UInt32` words in sequence; callers check the length first.
private struct WordReader {
    let bytes: [UInt8]
    var offset = 0

    mutating func next() -> UInt32 {
        defer { offset += 4 }
        return UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8
            | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }

    mutating func next(_ count: Int) -> [UInt32] {
        (0..<count).map { _ in next() }
    }
}
