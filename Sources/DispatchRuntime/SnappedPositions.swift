import FixRecords
import GeoKit
import Routing
import Synchronization

/// The taxis' latest positions snapped to the roads, shared by the one
/// that snaps them (``PositionSnapper``: in the background as fixes
/// arrive, and before each query for the few that moved since) and the
/// ones that route from them (``RouterPickupETAs``), so a query finds its
/// taxis snapped already instead of snapping them itself.
public final class SnappedPositions: Sendable {
    /// A position snapped, and whether it lies on the roads.
    public struct Entry: Sendable, Equatable {
        /// The coordinate snapped.
        public let coordinate: Coordinate
        /// Whether it snapped to a road; false when it is too far from every road.
        public let isOnRoads: Bool
    }

    /// Each taxi's coordinate and place, found by its slot: the places in
    /// one ``SnappedPlaces``, which a query reads where they lie, with no
    /// place copied out and nothing retained per taxi.
    private struct Table {
        var slots: [TaxiID: Int] = [:]
        var coordinates: [Coordinate] = []
        var places = SnappedPlaces()

        func entry(of taxi: TaxiID) -> Entry? {
            slots[taxi].map { Entry(coordinate: coordinates[$0], isOnRoads: places.isOnRoads(at: $0)) }
        }

        mutating func set(_ coordinate: Coordinate, _ place: SnappedPlace?, of taxi: TaxiID) {
            if let slot = slots[taxi] {
                coordinates[slot] = coordinate
                places.replace(at: slot, with: place)
            } else {
                slots[taxi] = places.count
                coordinates.append(coordinate)
                places.append(place)
            }
        }
    }

    private let table = Mutex(Table())
    /// Held by a ``PositionSnapper`` step from taking the moves to publishing them.
    private let updating = Mutex(())

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

    /// Runs `read` with the places kept and the index of each of `taxis`
    /// among them (nil for a taxi never snapped: the fleet has not heard
    /// from it), under the lock: a query reads the places where they lie
    /// instead of copying them out (the routing table over 2,000 taxis
    /// takes about a millisecond, during which publishing waits).
    public func withPlaces<Result: Sendable>(of taxis: [TaxiID], _ read: (SnappedPlaces, [Int?]) -> Result) -> Result {
        table.withLock { table in
            read(table.places, taxis.map { table.slots[$0] })
        }
    }

    /// Runs `update` while no other update runs, returning its count.
    func oneUpdateAtATime(_ update: () -> Int) -> Int {
        updating.withLock { _ in update() }
    }

    /// Records `snapped` (a taxi, its coordinate, and its place, nil when
    /// off the roads), replacing each taxi's previous entry.
    public func publish(_ snapped: some Sequence<(taxi: TaxiID, coordinate: Coordinate, place: SnappedPlace?)>) {
        table.withLock { table in
            for (taxi, coordinate, place) in snapped { table.set(coordinate, place, of: taxi) }
        }
    }
}
