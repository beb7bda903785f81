import Foundation

/// A WGS84 position, longitude first as in GeoJSON (RFC 7946), in degrees.
public struct Coordinate: Hashable, Sendable, CustomStringConvertible, Codable {
    /// Degrees east of Greenwich, -180...180.
    public var longitude: Double
    /// Degrees north of the equator, -90...90.
    public var latitude: Double

    /// Creates a position from longitude and latitude in degrees.
    public init(longitude: Double, latitude: Double) {
        self.longitude = longitude
        self.latitude = latitude
    }

    /// True when both values are finite and within the WGS84 ranges.
    public var isInRange: Bool {
        longitude.isFinite && latitude.isFinite
            && (-180...180).contains(longitude) && (-90...90).contains(latitude)
    }

    /// `lon,lat`, the order every command of this project reads and writes,
    /// each to 7 decimals (about a centimetre), as the API writes positions:
    /// a message names `7.415,43.705`, not the float `43.705000000000005`.
    public var description: String { "\(Self.sevenDecimals(longitude)),\(Self.sevenDecimals(latitude))" }

    private static func sevenDecimals(_ value: Double) -> Double {
        guard value.isFinite, value.magnitude <= 1e9 else { return value }
        let rounded = (value * 10_000_000).rounded() / 10_000_000
        return rounded == 0 ? 0 : rounded
    }
}

extension Coordinate {
    /// Mean Earth radius in metres, used by the spherical helpers: the
    /// IUGG mean radius of the WGS84 ellipsoid, (2a + b) / 3, to the
    /// tenth of a millimetre, the sphere PostGIS measures
    /// `ST_Length(geography, false)` on, so that a length worked out here
    /// and one the PostgreSQL archive works out agree.
    public static let earthRadiusMetres = 6_371_008.771_4

    /// Great-circle distance in metres to `other` (haversine formula).
    ///
    /// Accurate to about 0.5 % anywhere on Earth; good enough for plausibility
    /// checks and neighbour searches, not for survey work (use PROJ for that).
    public func haversineDistance(to other: Coordinate) -> Double {
        let toRadians = Double.pi / 180
        let phi1 = latitude * toRadians
        let phi2 = other.latitude * toRadians
        let dPhi = phi2 - phi1
        let dLambda = (other.longitude - longitude) * toRadians
        let a = sin(dPhi / 2) * sin(dPhi / 2)
            + cos(phi1) * cos(phi2) * sin(dLambda / 2) * sin(dLambda / 2)
        return 2 * Coordinate.earthRadiusMetres * asin(min(1, a.squareRoot()))
    }

    /// The position `eastMetres` east and `northMetres` north of this one,
    /// on the local plane (equirectangular at this latitude): for moves of
    /// metres to a few kilometres, such as a GPS error.
    public func offset(eastMetres: Double, northMetres: Double) -> Coordinate {
        let metresPerDegree = Coordinate.earthRadiusMetres * Double.pi / 180
        return Coordinate(longitude: longitude + eastMetres / (metresPerDegree * cos(latitude * Double.pi / 180)),
                          latitude: latitude + northMetres / metresPerDegree)
    }
}
