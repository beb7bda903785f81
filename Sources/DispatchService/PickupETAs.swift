import FixRecords
import Foundation
import GeoKit
import Routing

/// Driving times from taxis to a pickup, for the ETA a passenger is told
/// on acceptance and for choosing the nearest free taxi (SPEC D3–D5).
/// The service asks the road router about the taxis' live positions; a
/// test gives fixed times.
public protocol PickupETAs: Sendable {
    /// The driving time from each of `taxis` to `pickup`, leaving at
    /// `depart`, index for index: nil for a taxi whose position is unknown
    /// or which cannot reach the pickup. An array, not a dictionary, since
    /// a dispatcher's query over every free taxi asks for thousands.
    func etas(from taxis: [TaxiID], to pickup: Coordinate, depart: Date) -> [Duration?]
}

extension PickupETAs {
    /// The driving time from `taxi` to `pickup`, leaving at `depart`; nil when unknown.
    public func eta(from taxi: TaxiID, to pickup: Coordinate, depart: Date) -> Duration? {
        etas(from: [taxi], to: pickup, depart: depart).first ?? nil
    }
}

/// No router: no ETA is known. The dispatcher then tells no ETA and
/// leaves a reservation without a free taxi in its zone to the next one
/// that becomes free there.
public struct NoPickupETAs: PickupETAs {
    /// The provider that knows nothing.
    public init() {}

    public func etas(from taxis: [TaxiID], to pickup: Coordinate, depart: Date) -> [Duration?] {
        Array(repeating: nil, count: taxis.count)
    }
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

    public func etas(from taxis: [TaxiID], to pickup: Coordinate, depart: Date) -> [Duration?] {
        let places = places(of: taxis)
        guard places.contains(where: { $0 != nil }),
              let estimates = try? router.table(fromSnapped: places, to: pickup, depart: depart) else {
            return Array(repeating: nil, count: taxis.count)
        }
        return estimates.map { estimate in estimate.map { .milliseconds(Int64(($0.durationSeconds * 1000).rounded())) } }
    }

    /// The snapped positions of `taxis`, index for index (nil for a taxi
    /// whose position is unknown or off the roads): the table's, or, for a
    /// position it does not have yet, snapped now and published.
    private func places(of taxis: [TaxiID]) -> [SnappedPlace?] {
        let coordinates = fleet.positions(of: taxis)
        var (places, unsnapped) = snapped.places(of: taxis, at: coordinates)
        guard !unsnapped.isEmpty else { return places }
        let located = unsnapped.compactMap { index in coordinates[index].map { (index: index, coordinate: $0) } }
        let entries = SnappedPositions.snap(located.map(\.coordinate), with: router)
        for (taxi, entry) in zip(located, entries) { places[taxi.index] = entry.place }
        snapped.publish(zip(located, entries).map { (taxi: taxis[$0.index], entry: $1) })
        return places
    }
}
