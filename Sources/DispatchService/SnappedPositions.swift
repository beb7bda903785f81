import FixRecords
import GeoKit
import Routing
import Synchronization

/// The taxis' latest positions snapped to the roads, shared by the one
/// that snaps them (``PositionSnapper``, in the background, as fixes
/// arrive) and the ones that route from them (``RouterPickupETAs``), so a
/// query finds its taxis already snapped instead of snapping them itself.
public final class SnappedPositions: Sendable {
    /// A position and what it snapped to: nil when it is too far from every road.
    public struct Entry: Sendable {
        /// The coordinate snapped.
        public let coordinate: Coordinate
        /// Its place on the roads, nil when it is off them.
        public let place: SnappedPlace?
    }

    /// Each taxi's entry, found by its slot: read in place from the array,
    /// a check of the coordinate copies no place (a dictionary's values are
    /// copied out whole, retaining each place's candidates).
    private struct Table {
        var slots: [TaxiID: Int] = [:]
        var entries: [Entry] = []

        func entry(of taxi: TaxiID) -> Entry? {
            slots[taxi].map { entries[$0] }
        }

        mutating func set(_ entry: Entry, of taxi: TaxiID) {
            if let slot = slots[taxi] {
                entries[slot] = entry
            } else {
                slots[taxi] = entries.count
                entries.append(entry)
            }
        }
    }

    private let table = Mutex(Table())

    /// An empty table.
    public init() {}

    /// What `taxi`'s last snapped position was, nil when none was snapped.
    public func entry(of taxi: TaxiID) -> Entry? {
        table.withLock { $0.entry(of: taxi) }
    }

    /// The entries of `taxis`, index for index, under one lock.
    public func entries(of taxis: some Collection<TaxiID>) -> [Entry?] {
        table.withLock { table in taxis.map { table.entry(of: $0) } }
    }

    /// The places of `taxis` at `coordinates` (index for index), under one
    /// lock: nil for a taxi without a coordinate, or whose coordinate is not
    /// the one the table snapped (listed in `unsnapped`, to be snapped by
    /// the caller), or which is off the roads.
    public func places(of taxis: [TaxiID], at coordinates: [Coordinate?]) -> (places: [SnappedPlace?], unsnapped: [Int]) {
        var places: [SnappedPlace?] = []
        places.reserveCapacity(taxis.count)
        var unsnapped: [Int] = []
        table.withLock { table in
            for (index, taxi) in taxis.enumerated() {
                guard let coordinate = coordinates[index] else {
                    places.append(nil)
                    continue
                }
                if let slot = table.slots[taxi], table.entries[slot].coordinate == coordinate {
                    places.append(table.entries[slot].place)
                } else {
                    places.append(nil)
                    unsnapped.append(index)
                }
            }
        }
        return (places, unsnapped)
    }

    /// Records `snapped`, replacing each taxi's previous entry.
    public func publish(_ snapped: some Sequence<(taxi: TaxiID, entry: Entry)>) {
        table.withLock { table in
            for (taxi, entry) in snapped { table.set(entry, of: taxi) }
        }
    }

    /// `coordinates` snapped by `router` in one batch, index for index, as
    /// the table keeps them (no place when off the roads).
    static func snap(_ coordinates: [Coordinate], with router: Router) -> [Entry] {
        zip(coordinates, router.snapIfNear(coordinates)).map { Entry(coordinate: $0, place: $1) }
    }
}
