import GeoKit

/// A WGS84 point as the API reads and writes it: `{"lon": …, "lat": …}`.
struct PointJSON: Codable, Equatable, Sendable {
    var lon: Double
    var lat: Double

    /// The point of `coordinate`.
    init(_ coordinate: Coordinate) {
        lon = coordinate.longitude
        lat = coordinate.latitude
    }

    /// The coordinate, when the point is a WGS84 position (SPEC A3).
    /// - Throws: ``Problem`` 400 naming `field` and what it takes.
    func coordinate(field: String) throws -> Coordinate {
        let coordinate = Coordinate(longitude: lon, latitude: lat)
        guard coordinate.isInRange else {
            throw Problem.badRequest("'\(field)' must be a WGS84 position: lon in -180...180, lat in -90...90 (got \(lon), \(lat))")
        }
        return coordinate
    }
}
