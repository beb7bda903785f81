import Foundation
import GeoKit
import Routing

/// One drive on the road graph at the router's speeds for its departure
/// hour: how long it takes and, when asked for, where the taxi is at any
/// moment of it. The simulations share it, so that a simulated taxi drives
/// the same in `mytaxi dispatch simulate` and in `mytaxi simulate`.
///
/// Along the route the taxi keeps the drive's mean speed: the router gives
/// the whole drive's duration, not each edge's, and a fix every 30 s needs
/// no more than that.
public struct RoadDrive: Sendable {
    /// Where the drive starts.
    public let from: Coordinate
    /// Where it ends.
    public let to: Coordinate
    /// Its duration, seconds.
    public let durationSeconds: Double
    /// The route's points, from `from` to `to` (just both ends when there is no route).
    public let path: [Coordinate]
    /// The distance driven from the start to each point of ``path``, metres.
    private let distances: [Double]

    /// The drive from `from` to `to` leaving at `depart`; a straight line at
    /// about 20 km/h when the router has no route between them.
    public init(router: Router, from: Coordinate, to: Coordinate, depart: Date, withPath: Bool = false) {
        self.from = from
        self.to = to
        let route = try? router.route(from: from, to: to, depart: depart, includeGeometry: withPath)
        durationSeconds = route?.durationSeconds ?? from.haversineDistance(to: to) / Self.fallbackMetresPerSecond
        let points = route.map { [from] + $0.geometry + [to] } ?? [from, to]
        path = withPath ? points : [from, to]
        var driven = [0.0]
        for index in path.indices.dropFirst() { driven.append(driven[index - 1] + path[index - 1].haversineDistance(to: path[index])) }
        distances = driven
    }

    /// 5.5 m/s (about 20 km/h), the speed of a drive the router cannot route.
    public static let fallbackMetresPerSecond = 5.5

    /// The drive's duration as a `Duration`, to the millisecond.
    public var duration: Duration { .milliseconds(Int64((durationSeconds * 1000).rounded())) }

    /// The length of ``path``, metres.
    public var lengthMetres: Double { distances.last ?? 0 }

    /// The mean speed, km/h (0 for a drive of no time).
    public var meanSpeedKmh: Double { durationSeconds > 0 ? lengthMetres / durationSeconds * 3.6 : 0 }

    /// Where the taxi is `elapsed` seconds after leaving, and its heading in
    /// degrees clockwise from north; the end once the drive is over.
    public func position(after elapsed: Double) -> (coordinate: Coordinate, heading: Double) {
        guard durationSeconds > 0, path.count > 1 else { return (to, 0) }
        let along = min(max(elapsed / durationSeconds, 0), 1) * lengthMetres
        let segment = min(max((distances.firstIndex { $0 >= along } ?? path.count - 1), 1), path.count - 1)
        let start = path[segment - 1], end = path[segment]
        let span = distances[segment] - distances[segment - 1]
        let share = span > 0 ? (along - distances[segment - 1]) / span : 1
        let point = Coordinate(
            longitude: start.longitude + (end.longitude - start.longitude) * share,
            latitude: start.latitude + (end.latitude - start.latitude) * share)
        return (point, Self.heading(from: start, to: end))
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
