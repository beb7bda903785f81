import JSONKit

/// The coordinates of a GeoJSON Polygon or MultiPolygon geometry, as read,
/// before any validation: polygons → rings (exterior first) → positions.
public struct GeoJSONPolygons: Sendable, Equatable {
    /// "Polygon" or "MultiPolygon", as written in the file.
    public var type: String
    /// One entry for a Polygon, one per member for a MultiPolygon.
    public var polygons: [[[Coordinate]]]

    public init(type: String, polygons: [[[Coordinate]]]) {
        self.type = type
        self.polygons = polygons
    }
}

/// Why a GeoJSON geometry is not a usable Polygon or MultiPolygon.
public enum GeoJSONGeometryError: Error, Equatable, CustomStringConvertible {
    /// No geometry, or `"geometry": null`.
    case missingGeometry
    /// The geometry has no `type` member.
    case missingType
    /// A geometry of another type (Point, LineString, GeometryCollection, ...).
    case notPolygonal(String)
    /// The `coordinates` member is missing or not nested as the type requires.
    case malformedCoordinates(path: String, problem: String)

    public var description: String {
        switch self {
        case .missingGeometry: "has no geometry"
        case .missingType: "geometry has no \"type\""
        case .notPolygonal(let type): "geometry type \(type) is not Polygon or MultiPolygon"
        case .malformedCoordinates(let path, let problem): "malformed coordinates at \(path): \(problem)"
        }
    }
}

extension GeoJSONPolygons {
    /// Reads the polygons of a GeoJSON geometry object (RFC 7946 §3.1.6, §3.1.7).
    ///
    /// Only the nesting is checked here: a position must be an array of two
    /// or three numbers (a third, the altitude, is dropped). Ring closure,
    /// ranges and topology are the caller's checks.
    public init(geometry: JSONValue?) throws(GeoJSONGeometryError) {
        guard let geometry, geometry != .null else { throw .missingGeometry }
        guard case .string(let type)? = geometry["type"] else { throw .missingType }
        guard let coordinates = geometry["coordinates"] else {
            if type == "Polygon" || type == "MultiPolygon" {
                throw .malformedCoordinates(path: "coordinates", problem: "missing")
            }
            throw .notPolygonal(type)
        }
        switch type {
        case "Polygon":
            self.init(type: type, polygons: [try Self.polygon(coordinates, path: "coordinates")])
        case "MultiPolygon":
            let members = try Self.array(coordinates, path: "coordinates")
            var polygons: [[[Coordinate]]] = []
            for (index, member) in members.enumerated() {
                polygons.append(try Self.polygon(member, path: "coordinates[\(index)]"))
            }
            self.init(type: type, polygons: polygons)
        default:
            throw .notPolygonal(type)
        }
    }

    private static func polygon(_ value: JSONValue, path: String) throws(GeoJSONGeometryError) -> [[Coordinate]] {
        let rings = try array(value, path: path)
        if rings.isEmpty { throw .malformedCoordinates(path: path, problem: "a polygon needs at least one ring") }
        var result: [[Coordinate]] = []
        result.reserveCapacity(rings.count)
        for (ringIndex, ring) in rings.enumerated() {
            let ringPath = "\(path)[\(ringIndex)]"
            let positions = try array(ring, path: ringPath)
            var coordinates: [Coordinate] = []
            coordinates.reserveCapacity(positions.count)
            for (positionIndex, position) in positions.enumerated() {
                coordinates.append(try coordinate(position, path: "\(ringPath)[\(positionIndex)]"))
            }
            result.append(coordinates)
        }
        return result
    }

    private static func coordinate(_ value: JSONValue, path: String) throws(GeoJSONGeometryError) -> Coordinate {
        guard case .array(let numbers) = value, numbers.count == 2 || numbers.count == 3 else {
            throw .malformedCoordinates(path: path, problem: "a position must be [longitude, latitude]")
        }
        guard case .number(let longitude) = numbers[0], case .number(let latitude) = numbers[1] else {
            throw .malformedCoordinates(path: path, problem: "longitude and latitude must be numbers")
        }
        return Coordinate(longitude: longitude, latitude: latitude)
    }

    private static func array(_ value: JSONValue, path: String) throws(GeoJSONGeometryError) -> [JSONValue] {
        guard case .array(let items) = value else {
            throw .malformedCoordinates(path: path, problem: "expected an array, found \(value.kindName)")
        }
        return items
    }
}
