import GeoKit
import JSONKit

/// One zone of the city: an area with a stable id and a name, as loaded and
/// checked from the zone file.
public struct Zone: Sendable {
    /// Stable id, unique within its zone set.
    public let id: ZoneID
    /// Human-readable name (falls back to the id when the file has none).
    public let name: String
    /// The (possibly repaired) area, in WGS84 longitude/latitude.
    public let geometry: Geometry
    /// The geometry's bounding box.
    public let boundingBox: BoundingBox
    /// Every property of the feature, as read.
    public let properties: [String: JSONValue]

    /// Creates a zone; the geometry must be a valid Polygon or MultiPolygon.
    public init(id: ZoneID, name: String, geometry: Geometry, properties: [String: JSONValue] = [:]) {
        self.id = id
        self.name = name
        self.geometry = geometry
        self.boundingBox = geometry.boundingBox ?? BoundingBox(minX: 0, minY: 0, maxX: 0, maxY: 0)
        self.properties = properties
    }
}
