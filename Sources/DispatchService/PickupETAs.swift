import FixRecords
import Foundation
import GeoKit
import Routing

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
/// query for all the taxis asked about (not one route per taxi), from the
/// places in ``SnappedPositions``, which the service's ``PositionSnapper``
/// fills as fixes arrive. A position not snapped yet (it has just arrived)
/// is snapped here and published, so no answer is computed from an old
/// position, and a free taxi waiting in its zone costs no snapping however
/// often it is a candidate.
public final class RouterPickupETAs: PickupETAs {
    let router: Router
    let fleet: any TaxiPositions
    /// The snapped positions read, and completed with those snapped here.
    public let snapped: SnappedPositions

    /// ETAs from `router` on the positions in `fleet`, snapped in `snapped`.
    public init(router: Router, fleet: any TaxiPositions, snapped: SnappedPositions = SnappedPositions()) {
        self.router = router
        self.fleet = fleet
        self.snapped = snapped
    }

    public func etas(from taxis: [TaxiID], to pickup: Coordinate, depart: Date) -> [TaxiID: Duration] {
        let placed = places(of: taxis)
        guard !placed.isEmpty, let estimates = try? router.table(fromSnapped: placed.map(\.place), to: pickup, depart: depart) else {
            return [:]
        }
        var etas: [TaxiID: Duration] = [:]
        etas.reserveCapacity(placed.count)
        for (entry, estimate) in zip(placed, estimates) {
            if let estimate { etas[entry.taxi] = .milliseconds(Int64((estimate.durationSeconds * 1000).rounded())) }
        }
        return etas
    }

    /// The snapped positions of those of `taxis` whose position is known:
    /// the table's, or, for a position it does not have yet, snapped now and published.
    private func places(of taxis: [TaxiID]) -> [(taxi: TaxiID, place: SnappedPlace?)] {
        let positions = zip(taxis, fleet.positions(of: taxis)).compactMap { taxi, coordinate in
            coordinate.map { (taxi: taxi, coordinate: $0) }
        }
        let known = snapped.entries(of: positions.lazy.map(\.taxi))
        var fresh: [(taxi: TaxiID, entry: SnappedPositions.Entry)] = []
        let placed = zip(positions, known).map { position, known -> (taxi: TaxiID, place: SnappedPlace?) in
            if let known, known.coordinate == position.coordinate { return (position.taxi, known.place) }
            let entry = SnappedPositions.snap(position.coordinate, with: router)
            fresh.append((position.taxi, entry))
            return (position.taxi, entry.place)
        }
        if !fresh.isEmpty { snapped.publish(fresh) }
        return placed
    }
}
