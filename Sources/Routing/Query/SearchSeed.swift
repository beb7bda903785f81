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

/// The part `share` (0...1) of an edge's travel time `weight`, to the
/// nearest ms, halves rounded up: what `UInt32((Double(weight) * share).rounded())`
/// gives, without the C library's `round`, which a table from thousands
/// of taxis called tens of thousands of times per query. Exact: the
/// product is below 2^32, where dropping its fraction and subtracting it
/// back are exact.
@inline(__always)
func partOfWeight(_ weight: UInt32, _ share: Double) -> UInt32 {
    let exact = Double(weight) * share
    let whole = UInt32(exact)
    return exact - Double(whole) >= 0.5 ? whole + 1 : whole
}
