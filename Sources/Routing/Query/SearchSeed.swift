/// Where a search starts or ends: a graph node plus what it costs to get
/// between that node and the snapped point.
///
/// A coordinate snapped onto the middle of an edge becomes one seed per
/// direction the road can be driven (the edge's head, and its tail when a
/// reverse twin exists); the offsets are the fraction of the edge still to
/// drive, in the metric's milliseconds and in metres.
public struct SearchSeed: Sendable, Equatable {
    /// Original node id (not a CCH rank).
    public var node: UInt32
    /// Travel time between the snapped point and `node`, in milliseconds.
    public var offsetMs: UInt32
    /// Length between the snapped point and `node`, in metres.
    public var offsetMetres: Float

    /// Creates a seed; a seed with zero offsets is a search from or to `node` itself.
    public init(node: UInt32, offsetMs: UInt32 = 0, offsetMetres: Float = 0) {
        self.node = node
        self.offsetMs = offsetMs
        self.offsetMetres = offsetMetres
    }
}

/// Travel time marking "no path"; edge weights use it for closed roads.
public let unreachableMs = UInt32.max

/// `a + b` saturating at ``unreachableMs``, so unreachable stays unreachable.
@inline(__always)
func saturatingAdd(_ a: UInt32, _ b: UInt32) -> UInt32 {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? unreachableMs : sum
}
