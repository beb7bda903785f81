import Foundation
import GeoKit

/// Distances on the local plane (equirectangular at the points' latitude):
/// exact enough within a city, and several times cheaper than the haversine
/// for the many comparisons a search or a reverse lookup makes.
enum PlanarDistance {
    static let metresPerDegree = Coordinate.earthRadiusMetres * Double.pi / 180

    /// The squared distance in square metres between `a` and `b`.
    static func squaredMetres(_ a: Coordinate, _ b: Coordinate) -> Double {
        let x = (b.longitude - a.longitude) * cos((a.latitude + b.latitude) * Double.pi / 360) * metresPerDegree
        let y = (b.latitude - a.latitude) * metresPerDegree
        return x * x + y * y
    }

    /// The point of the segment `a`–`b` nearest `point`, and its distance in metres.
    static func foot(of point: Coordinate, on a: Coordinate, _ b: Coordinate) -> (point: Coordinate, metres: Double) {
        let scale = cos(point.latitude * Double.pi / 180)
        let ax = (a.longitude - point.longitude) * scale, ay = a.latitude - point.latitude
        let bx = (b.longitude - point.longitude) * scale, by = b.latitude - point.latitude
        let dx = bx - ax, dy = by - ay
        let lengthSquared = dx * dx + dy * dy
        let t = lengthSquared == 0 ? 0 : min(1, max(0, -(ax * dx + ay * dy) / lengthSquared))
        let foot = Coordinate(longitude: a.longitude + (b.longitude - a.longitude) * t,
                              latitude: a.latitude + (b.latitude - a.latitude) * t)
        return (foot, squaredMetres(point, foot).squareRoot())
    }
}
