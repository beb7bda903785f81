import FixRecords

/// One zone's FIFO queue of available, non-stale taxis (SPEC D2), kept in
/// the order of their ``QueuePlace``: the head is the taxi available the
/// longest, which gets the zone's next offer.
public struct ZoneQueue: Equatable, Sendable, Codable {
    /// A taxi waiting in the queue, at its place.
    public struct Entry: Equatable, Sendable, Codable {
        /// The waiting taxi.
        public let taxi: TaxiID
        /// Its place, which orders the queue.
        public let place: QueuePlace
    }

    /// The waiting taxis, head first.
    public private(set) var entries: [Entry] = []

    /// An empty queue.
    public init() {}

    /// The waiting taxis' ids, head first.
    public var taxis: [TaxiID] { entries.map(\.taxi) }

    /// True when no taxi waits.
    public var isEmpty: Bool { entries.isEmpty }

    /// The 1-based position of `taxi`, or nil when it is not in the queue.
    public func position(of taxi: TaxiID) -> Int? {
        entries.firstIndex { $0.taxi == taxi }.map { $0 + 1 }
    }

    /// Puts `taxi` at `place`, behind every taxi with an earlier place
    /// (binary search: a zone's queue is walked, not scanned, on every
    /// arrival), and returns its 1-based position.
    mutating func insert(_ taxi: TaxiID, at place: QueuePlace) -> Int {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].place < place { low = middle + 1 } else { high = middle }
        }
        entries.insert(Entry(taxi: taxi, place: place), at: low)
        return low + 1
    }

    /// Takes `taxi` out of the queue.
    mutating func remove(_ taxi: TaxiID) {
        entries.removeAll { $0.taxi == taxi }
    }
}
