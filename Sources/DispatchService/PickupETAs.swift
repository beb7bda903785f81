import FixRecords
import Fleet
import Foundation
import GeoKit
import Routing
import Synchronization

/// Driving times from taxis to a pickup, for the ETA a passenger is told
/// on acceptance and for choosing the nearest free taxi (SPEC D3–D5).
/// The service asks the road router about the taxis' live positions; a
/// test gives fixed times.
public protocol PickupETAs: Sendable {
    /// The driving time from each of `taxis` whose position is known and
    /// which can reach `pickup`, leaving at `depart`.
    func etas(from taxis: [TaxiID], to pickup: Coordinate, depart: Date) -> [TaxiID: Duration]
}

/// No router: no ETA is known. The dispatcher then tells no ETA and
/// leaves a reservation without a free taxi in its zone to the next one
/// that becomes free there.
public struct NoPickupETAs: PickupETAs {
    /// The provider that knows nothing.
    public init() {}

    public func etas(from taxis: [TaxiID], to pickup: Coordinate, depart: Date) -> [TaxiID: Duration] { [:] }
}

/// The road router on the live fleet's positions: one many-to-one table
/// query for all the taxis asked about (not one route per taxi). Each
/// taxi's position is snapped to the roads once per position it reports,
/// not at every query: a free taxi waiting in its zone costs no snapping
/// however often it is a candidate, and the ingest path does not snap.
public final class RouterPickupETAs: PickupETAs {
    let router: Router
    let fleet: any TaxiPositions
    /// Each taxi's last position snapped, and what it snapped to (nil: too far from a road).
    private let snapped = Mutex<[TaxiID: (position: Coordinate, place: SnappedPlace?)]>([:])

    /// ETAs from `router` on the positions in `fleet`.
    public init(router: Router, fleet: any TaxiPositions) {
        self.router = router
        self.fleet = fleet
    }

    public func etas(from taxis: [TaxiID], to pickup: Coordinate, depart: Date) -> [TaxiID: Duration] {
        let placed = places(of: taxis)
        guard !placed.isEmpty, let estimates = try? router.table(fromSnapped: placed.map(\.1), to: pickup, depart: depart) else {
            return [:]
        }
        var etas: [TaxiID: Duration] = [:]
        for ((taxi, _), estimate) in zip(placed, estimates) {
            if let estimate { etas[taxi] = .milliseconds(Int64((estimate.durationSeconds * 1000).rounded())) }
        }
        return etas
    }

    /// The snapped positions of those of `taxis` whose position is known,
    /// snapping only the positions not snapped before.
    private func places(of taxis: [TaxiID]) -> [(TaxiID, SnappedPlace?)] {
        let positions = taxis.compactMap { taxi in fleet.position(of: taxi).map { (taxi: taxi, position: $0) } }
        let cached = snapped.withLock { cache in positions.map { cache[$0.taxi] } }
        var fresh: [TaxiID: (position: Coordinate, place: SnappedPlace?)] = [:]
        let placed = zip(positions, cached).map { entry, cached -> (TaxiID, SnappedPlace?) in
            if let cached, cached.position == entry.position { return (entry.taxi, cached.place) }
            let place = try? router.snap(entry.position)
            fresh[entry.taxi] = (entry.position, place)
            return (entry.taxi, place)
        }
        if !fresh.isEmpty { snapped.withLock { $0.merge(fresh) { _, new in new } } }
        return placed
    }
}
