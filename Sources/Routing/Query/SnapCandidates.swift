/// The snap candidates of one coordinate, nearest first, as
/// ``Snapper/candidatesIfNear(_:maxDistanceMetres:radiusMetres:limit:)``
/// lists them: the nearest held in place and the others, if any, in a
/// slice of an array. Most points lie near one road only (the middle of a
/// block), and then snapping them allocates nothing; the others of a whole
/// batch of points share one array: a fleet's thousands of positions are
/// snapped without thousands of allocations. One point's candidates kept
/// keep the whole batch's array: what holds places for long copies what
/// it needs of them (``SnappedPlaces``, the fleet's snapped positions).
public struct SnapCandidates: RandomAccessCollection, Sendable, Equatable {
    /// The nearest snap.
    public let nearest: Snapper.Snap
    /// The other candidates, nearest first.
    private let others: ArraySlice<Snapper.Snap>

    /// The candidates `nearest`, then `others`.
    init(nearest: Snapper.Snap, others: ArraySlice<Snapper.Snap>) {
        self.nearest = nearest
        self.others = others
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { others.count + 1 }

    public subscript(position: Int) -> Snapper.Snap {
        position == 0 ? nearest : others[others.startIndex + position - 1]
    }
}
