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
    /// A position and what it snapped to: nil when it is too far from every road.
    public struct Entry: Sendable {
        /// The coordinate snapped.
        public let coordinate: Coordinate
        /// Its place on the roads, nil when it is off them.
        public let place: SnappedPlace?
    }

    /// Each taxi's coordinate and place, found by its slot, in two arrays:
    /// a place is read straight from its array, where reading it from a
    /// whole entry (or a dictionary's value) copies the entry first,
    /// retaining its place's candidates once more, thousands of times a query.
    private struct Table {
        var slots: [TaxiID: Int] = [:]
        var coordinates: [Coordinate] = []
        var places: [SnappedPlace?] = []

        func entry(of taxi: TaxiID) -> Entry? {
            slots[taxi].map { Entry(coordinate: coordinates[$0], place: places[$0]) }
        }

        mutating func set(_ entry: Entry, of taxi: TaxiID) {
            if let slot = slots[taxi] {
                coordinates[slot] = entry.coordinate
                places[slot] = entry.place
            } else {
                slots[taxi] = places.count
                coordinates.append(entry.coordinate)
                places.append(entry.place)
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

    /// The places of `taxis`, index for index, under one lock: nil for a
    /// taxi never snapped (the fleet has not heard from it) or off the roads.
    public func places(of taxis: [TaxiID]) -> [SnappedPlace?] {
        table.withLock { table in
            taxis.map { taxi in table.slots[taxi].flatMap { table.places[$0] } }
        }
    }

    /// Runs `update` while no other update runs, returning its count.
    func oneUpdateAtATime(_ update: () -> Int) -> Int {
        updating.withLock { _ in update() }
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
