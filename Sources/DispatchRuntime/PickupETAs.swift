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
/// places in ``SnappedPositions``. Each query first runs a step of the
/// ``PositionSnapper``, which snaps only the taxis that moved since the
/// last step (the service also steps in the background, so few are left):
/// no answer is computed from an old position, and a free taxi waiting in
/// its zone costs one look-up, with no snapping, however often it is asked about.
public final class RouterPickupETAs: PickupETAs {
    /// The snapper that brings the places up to date, and its router.
    public let snapper: PositionSnapper
    /// The fleet's time at a clock time: when the taxis' positions and speeds are from.
    private let fleetTime: @Sendable (Date) -> Date

    /// ETAs from the places `snapper` keeps, for departures at the fleet's
    /// time (`fleetTime` of the time asked: the time of its newest fix,
    /// which is the clock's for a live fleet and behind it for a replayed
    /// or simulated one, whose positions and speeds are of that moment).
    public init(snapper: PositionSnapper, fleetTime: @escaping @Sendable (Date) -> Date = { $0 }) {
        self.snapper = snapper
        self.fleetTime = fleetTime
    }

    /// ETAs from `router` on the positions of the taxis that move in `fleet`.
    public convenience init(router: RoadRouter, fleet: any MovingTaxis) {
        self.init(snapper: PositionSnapper(router: router, fleet: fleet, snapped: SnappedPositions()))
    }

    public func etas(from taxis: [TaxiID], to pickup: Coordinate, depart asked: Date) -> [Duration?] {
        let depart = fleetTime(asked)
        snapper.step()
        // The hour's metric is customized on its first use, which takes
        // seconds on a whole city: do it before the places' lock, so the
        // snapper's publishing never waits behind it, only behind the table.
        _ = snapper.router.metric(departing: depart)
        let estimates = snapper.snapped.withPlaces(of: taxis) { places, indices -> [TravelEstimate?]? in
            guard indices.contains(where: { $0.map(places.isOnRoads(at:)) ?? false }) else { return nil }
            return try? snapper.router.table(fromSnapped: places, at: indices, to: pickup, depart: depart)
        }
        guard let estimates else { return Array(repeating: nil, count: taxis.count) }
        return estimates.map { estimate in estimate.map { .milliseconds(Int64(($0.durationSeconds * 1000).rounded())) } }
    }
}
