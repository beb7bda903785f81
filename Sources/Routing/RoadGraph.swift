import GeoKit

/// A directed road graph in compressed sparse row form, as the importer
/// builds it from OpenStreetMap and the query engine consumes it.
///
/// Every edge is a straight segment between two consecutive way nodes, so a
/// route's geometry is its node coordinates and snapping works on edges.
/// Nodes are numbered 0..<nodeCount; the outgoing edges of node `n` are
/// `firstEdge[n]..<firstEdge[n + 1]`.
public struct RoadGraph: Sendable, Equatable {
    /// Node positions (WGS84). Nodes split for turn restrictions share the
    /// position of the node they were split from.
    public var coordinates: [Coordinate]
    /// Start of each node's outgoing edges; `nodeCount + 1` entries.
    public var firstEdge: [UInt32]
    /// The node each edge leads to.
    public var edgeHead: [UInt32]
    /// Free-flow travel time of each edge in milliseconds (profile default speed).
    public var edgeDurationMs: [UInt32]
    /// Length of each edge in metres.
    public var edgeLengthMetres: [Float]
    /// Road class of each edge, for time-of-day speed factors.
    public var edgeRoadClass: [RoadClass]
    /// Lane class of each edge in its direction, for the narrow-street speed factor.
    public var edgeLaneClass: [LaneClass]
    /// How each edge arrives at a signalled junction, for the minor-approach delay.
    public var edgeSignalApproach: [SignalApproach]

    /// Creates a graph from its arrays; without lane classes every edge is
    /// ``LaneClass/untagged`` (graphs drawn in code, profiles that ignore
    /// widths), without signal approaches ``SignalApproach/none``.
    public init(
        coordinates: [Coordinate], firstEdge: [UInt32], edgeHead: [UInt32],
        edgeDurationMs: [UInt32], edgeLengthMetres: [Float], edgeRoadClass: [RoadClass],
        edgeLaneClass: [LaneClass]? = nil, edgeSignalApproach: [SignalApproach]? = nil
    ) {
        self.coordinates = coordinates
        self.firstEdge = firstEdge
        self.edgeHead = edgeHead
        self.edgeDurationMs = edgeDurationMs
        self.edgeLengthMetres = edgeLengthMetres
        self.edgeRoadClass = edgeRoadClass
        self.edgeLaneClass = edgeLaneClass ?? Array(repeating: .untagged, count: edgeHead.count)
        self.edgeSignalApproach = edgeSignalApproach ?? Array(repeating: .none, count: edgeHead.count)
    }

    public var nodeCount: Int { coordinates.count }
    public var edgeCount: Int { edgeHead.count }

    /// The node each edge leaves from (the inverse of ``firstEdge``), built
    /// on each call (megabytes on a city): call it once and keep the array,
    /// as ``Snapper/edgeTail`` does.
    public func edgeTails() -> [UInt32] {
        var tails = [UInt32](repeating: 0, count: edgeCount)
        for node in 0..<nodeCount {
            for edge in edges(from: node) { tails[edge] = UInt32(node) }
        }
        return tails
    }

    /// The outgoing edge indices of `node`.
    public func edges(from node: Int) -> Range<Int> {
        Int(firstEdge[node])..<Int(firstEdge[node + 1])
    }
}
