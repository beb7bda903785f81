/// A built road graph with what the build learned on the way.
public struct GraphBuildResult: Sendable, Equatable {
    /// The graph: largest strongly connected component, edges sorted by tail.
    public var graph: RoadGraph
    /// The OSM way id of each edge of ``graph`` (for tests, and for matching
    /// live speeds reported per way later); store it with ``GraphFile/wayIDSection``.
    public var edgeWayIDs: [Int64]
    /// Counts of what was kept, split, skipped and dropped.
    public var statistics: GraphBuildStatistics

    /// Creates a result from its parts.
    public init(graph: RoadGraph, edgeWayIDs: [Int64], statistics: GraphBuildStatistics) {
        self.graph = graph
        self.edgeWayIDs = edgeWayIDs
        self.statistics = statistics
    }
}
