/// What a graph build kept, split and dropped, for the build summary and tests.
public struct GraphBuildStatistics: Sendable, Equatable {
    /// Way pieces the profile could use.
    public var routableWays = 0
    /// Way node references whose node was missing from the file.
    public var missingNodeReferences = 0
    /// Ways split or dropped because of missing nodes.
    public var waysWithMissingNodes = 0
    /// Nodes before the component filter, split copies included.
    public var nodesBeforeFilter = 0
    /// Edges before the component filter.
    public var edgesBeforeFilter = 0
    /// Node copies made to apply turn restrictions.
    public var splitNodes = 0
    /// Turn restrictions applied by node splitting.
    public var restrictionsApplied = 0
    /// Restriction relations binding the profile that could not be applied, by reason.
    public var restrictionsSkipped: [TurnRestriction.Skip: Int] = [:]
    /// Restriction relations for other travellers (or exempting this one).
    public var restrictionsNotForProfile = 0
    /// Nodes outside the largest strongly connected component, removed.
    public var droppedNodes = 0
    /// Edges touching a removed node.
    public var droppedEdges = 0

    /// All skipped restrictions, whatever the reason.
    public var restrictionsSkippedTotal: Int { restrictionsSkipped.values.reduce(0, +) }

    /// Creates empty statistics; the builder fills them in.
    public init() {}
}
