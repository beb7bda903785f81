import Foundation
import GeoKit
import Routing

/// One drive on the road graph at the router's speeds for its departure:
/// how long it takes and, when asked for, where the taxi is at any moment
/// of it. The simulations share it, so that a simulated taxi drives the
/// same in `mytaxi dispatch simulate` and in `mytaxi simulate`.
///
/// A drive with its path follows the route edge by edge
/// (``RoadRouter/timedRoute(from:to:depart:)``), each edge taking its own time
/// at the departure's speeds, so that a slow avenue shows in the taxi's
/// fixes as a slow avenue, not as a slower whole trip: what the service's
/// learning from the fleet's fixes must be able to see. The router's trip
/// overhead (pulling out, finding the kerb: ``RoadRouter/tripOverheadSeconds``)
/// is spent standing, half at ``from`` before setting off, half at ``to``
/// at the end, since no road's speed accounts for it.
///
/// A pair the router cannot route is driven in a straight line at
/// ``fallbackMetresPerSecond``, with no overhead.
public struct RoadDrive: Sendable {
    /// Where the drive starts.
    public let from: Coordinate
    /// Where it ends.
    public let to: Coordinate
    /// Its duration, seconds, standing included.
    public let durationSeconds: Double
    /// Its length, metres: the route's, or the straight line's.
    public let distanceMetres: Double
    /// The part of ``durationSeconds`` spent standing, seconds: half before setting off, half at the end.
    public let standingSeconds: Double
    /// The route driven, edge by edge; nil for a drive timed without its
    /// path, or driven in a straight line for want of a route.
    public let route: TimedRoute?

    /// The drive from `from` to `to` leaving at `depart`; a straight line at
    /// about 20 km/h when the router has no route between them.
    /// - Parameter withPath: whether the taxi's positions along the drive
    ///   will be asked for: the route is then kept edge by edge; without
    ///   it the drive is only timed (the same total, without unpacking the
    ///   route) and ``position(after:)`` goes straight from `from` to `to`.
    public init(router: RoadRouter, from: Coordinate, to: Coordinate, depart: Date, withPath: Bool = false) {
        self.from = from
        self.to = to
        if withPath, let route = try? router.timedRoute(from: from, to: to, depart: depart) {
            self.route = route
            standingSeconds = router.tripOverheadSeconds
            durationSeconds = route.durationSeconds + standingSeconds
            distanceMetres = route.stretches.reduce(0) { $0 + $1.from.haversineDistance(to: $1.to) }
        } else if !withPath, let route = try? router.route(from: from, to: to, depart: depart) {
            self.route = nil
            standingSeconds = router.tripOverheadSeconds
            durationSeconds = route.durationSeconds
            distanceMetres = route.distanceMetres
        } else {
            route = nil
            standingSeconds = 0
            distanceMetres = from.haversineDistance(to: to)
            durationSeconds = distanceMetres / Self.fallbackMetresPerSecond
        }
    }

    /// 5.5 m/s (about 20 km/h), the speed of a drive the router cannot route.
    public static let fallbackMetresPerSecond = 5.5

    /// The drive's duration as a `Duration`, to the millisecond.
    public var duration: Duration { .milliseconds(Int64((durationSeconds * 1000).rounded())) }

    /// Where the taxi is `elapsed` seconds after leaving, and its heading in
    /// degrees clockwise from north: at ``from`` (heading 0) while standing
    /// before setting off, at ``to`` (heading 0) once the driving is over.
    public func position(after elapsed: Double) -> (coordinate: Coordinate, heading: Double) {
        let moment = moment(after: elapsed)
        return (moment.coordinate, moment.heading)
    }

    /// How fast the taxi goes `elapsed` seconds after leaving, km/h: the
    /// speed of the edge it is on, 0 while standing.
    public func speedKmh(after elapsed: Double) -> Double {
        moment(after: elapsed).speedKmh
    }

    /// Where the taxi is, which way it heads and how fast it goes `elapsed` seconds after leaving.
    private func moment(after elapsed: Double) -> (coordinate: Coordinate, heading: Double, speedKmh: Double) {
        let driving = elapsed - standingSeconds / 2, drivingSeconds = durationSeconds - standingSeconds
        guard driving < drivingSeconds else { return (to, 0, 0) }
        guard driving >= 0 else { return (from, 0, 0) }
        if let route, let stretch = route.stretch(after: driving) {
            let seconds = stretch.end - stretch.start
            return (route.position(after: driving).coordinate, Self.heading(from: stretch.from, to: stretch.to),
                    seconds > 0 ? stretch.from.haversineDistance(to: stretch.to) / seconds * 3.6 : 0)
        }
        let share = driving / drivingSeconds
        let point = Coordinate(longitude: from.longitude + (to.longitude - from.longitude) * share,
                               latitude: from.latitude + (to.latitude - from.latitude) * share)
        return (point, Self.heading(from: from, to: to), from.haversineDistance(to: to) / drivingSeconds * 3.6)
    }

    /// The initial bearing from `start` to `end`, 0 to 360 degrees.
    static func heading(from start: Coordinate, to end: Coordinate) -> Double {
        let toRadians = Double.pi / 180
        let phi1 = start.latitude * toRadians, phi2 = end.latitude * toRadians
        let dLambda = (end.longitude - start.longitude) * toRadians
        let y = sin(dLambda) * cos(phi2)
        let x = cos(phi1) * sin(phi2) - sin(phi1) * cos(phi2) * cos(dLambda)
        let degrees = atan2(y, x) / toRadians
        return degrees < 0 ? degrees + 360 : degrees
    }
}
