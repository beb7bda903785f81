/// Many places snapped to the roads, kept flat for tables from thousands
/// of them (every free taxi of a district to a pickup, SPEC D4): each
/// place's snap candidates, only what a table reads of them (the edge and
/// where along it), lie in one contiguous array, ``RoadRouter/maxSnapCandidates``
/// slots a place, so a table reads a place without following a pointer of
/// its own and without copying or retaining anything, and a place that
/// moves is replaced in its own slots. Where ``SnappedPlace`` keeps each
/// place's candidates in an array of its own, which a table from 2,000
/// places read scattered across the heap and retained once per place.
public struct SnappedPlaces: Sendable {
    /// A snap candidate as a table reads it: its edge and where along it.
    struct Candidate: RoadPosition, Sendable {
        /// The edge, as a 32-bit number (the graph's edges fit).
        let edgeNumber: UInt32
        /// Where along the edge, from its tail (0) to its head (1).
        let fraction: Double

        var edge: Int { Int(edgeNumber) }
    }

    /// Slots per place: the most candidates a snap gives.
    static let slotsPerPlace = RoadRouter.maxSnapCandidates
    /// Each place's candidates from its first slot, nearest first; slots
    /// beyond a place's count are left as they were and never read.
    private var slots: [Candidate] = []
    /// How many candidates each place has: 0 for a place off the roads.
    private var counts: [UInt8] = []

    /// No places.
    public init() {}

    /// `places`, index for index (nil: a place off the roads).
    public init(_ places: [SnappedPlace?]) {
        slots.reserveCapacity(places.count * Self.slotsPerPlace)
        counts.reserveCapacity(places.count)
        for place in places { append(place) }
    }

    /// How many places there are.
    public var count: Int { counts.count }

    /// Whether the place at `index` is on the roads (it has candidates).
    public func isOnRoads(at index: Int) -> Bool {
        counts[index] != 0
    }

    /// Adds `place` (nil: off the roads) at index ``count``.
    public mutating func append(_ place: SnappedPlace?) {
        slots.append(contentsOf: repeatElement(Candidate(edgeNumber: 0, fraction: 0), count: Self.slotsPerPlace))
        counts.append(0)
        replace(at: counts.count - 1, with: place)
    }

    /// Replaces the place at `index` with `place` (nil: off the roads).
    public mutating func replace(at index: Int, with place: SnappedPlace?) {
        counts[index] = 0
        guard let candidates = place?.candidates else { return }
        precondition(candidates.count <= Self.slotsPerPlace, "a snap gives at most RoadRouter.maxSnapCandidates candidates")
        let first = index * Self.slotsPerPlace
        for (offset, candidate) in candidates.enumerated() {
            slots[first + offset] = Candidate(edgeNumber: UInt32(candidate.edge), fraction: candidate.fraction)
        }
        counts[index] = UInt8(candidates.count)
    }

    /// Runs `body` with the candidates of the places at `indices`, index
    /// for index, read in place (none for a nil index or a place off the roads).
    func withCandidates<Result>(at indices: [Int?], _ body: ([UnsafeBufferPointer<Candidate>]) -> Result) -> Result {
        slots.withUnsafeBufferPointer { slots in
            body(indices.map { index in
                guard let index else { return UnsafeBufferPointer(start: nil, count: 0) }
                let first = index * Self.slotsPerPlace
                return UnsafeBufferPointer(rebasing: slots[first..<first + Int(counts[index])])
            })
        }
    }
}
