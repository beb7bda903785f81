import FixRecords
import Fleet
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
/// query for all the taxis asked about (not one route per taxi).
public struct RouterPickupETAs: PickupETAs {
    let router: Router
    let fleet: FleetIndex

    /// ETAs from `router` on the positions in `fleet`.
    public init(router: Router, fleet: FleetIndex) {
        self.router = router
        self.fleet = fleet
    }

    public func etas(from taxis: [TaxiID], to pickup: Coordinate, depart: Date) -> [TaxiID: Duration] {
        let placed = taxis.compactMap { taxi in fleet.latestPosition(of: taxi).map { (taxi, $0.coordinate) } }
        guard !placed.isEmpty, let estimates = try? router.table(from: placed.map(\.1), to: pickup, depart: depart) else {
            return [:]
        }
        var etas: [TaxiID: Duration] = [:]
        for ((taxi, _), estimate) in zip(placed, estimates) {
            if let estimate { etas[taxi] = .milliseconds(Int64((estimate.durationSeconds * 1000).rounded())) }
        }
        return etas
    }
}
