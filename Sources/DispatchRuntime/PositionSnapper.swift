import FixRecords
import Fleet
import GeoKit
import Routing

/// Snaps the positions of the taxis that moved to the roads, off the ingest
/// path: ingest only notes which taxis moved (``FleetIndex/takeMoved()``),
/// and ``step()``, which the service runs a few times a second and every
/// query runs first, snaps their latest positions and publishes them in
/// ``SnappedPositions``: a query then finds every taxi snapped where the
/// fleet last saw it, the step having snapped only the few that moved
/// since the last one.
public struct PositionSnapper: Sendable {
    /// The router snapping.
    public let router: RoadRouter
    /// The live fleet, which says who moved.
    public let fleet: any MovingTaxis
    /// Where the snapped positions go.
    public let snapped: SnappedPositions

    /// Snaps with `router` the taxis of `fleet` that move, into `snapped`.
    public init(router: RoadRouter, fleet: any MovingTaxis, snapped: SnappedPositions) {
        self.router = router
        self.fleet = fleet
        self.snapped = snapped
    }

    /// Snaps the latest position of every taxi that moved since the last
    /// step, unless that position is snapped already (it moved back), and
    /// publishes them; returns how many it snapped. One step runs at a
    /// time: a query's step waits for a background step that took the moves
    /// to publish them, so it never reads a place older than the fleet's.
    @discardableResult
    public func step() -> Int {
        snapped.oneUpdateAtATime {
            let moved = fleet.takeMoved()
            guard !moved.isEmpty else { return 0 }
            let known = snapped.entries(of: moved.lazy.map(\.taxi))
            let fresh = zip(moved, known).filter { moved, known in known?.coordinate != moved.coordinate }.map(\.0)
            let places = router.snapIfNear(fresh.map(\.coordinate))
            snapped.publish(zip(fresh, places).map { (taxi: $0.taxi, coordinate: $0.coordinate, place: $1) })
            return fresh.count
        }
    }
}
