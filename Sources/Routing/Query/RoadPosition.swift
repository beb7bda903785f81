/// A point on an edge of the road graph: which edge, and where along it.
/// What search seeds and straight drives are computed from, whether the
/// point is a whole snap (``Snapper/Snap``, with its distance and projected
/// point) or a candidate kept flat for tables (``SnappedPlaces``).
protocol RoadPosition {
    /// The edge the point lies on.
    var edge: Int { get }
    /// Where along the edge, from its tail (0) to its head (1).
    var fraction: Double { get }
}

extension Snapper.Snap: RoadPosition {}
