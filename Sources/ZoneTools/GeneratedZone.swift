import GeoKit
import JSONKit

/// A zone a tool made (a grid cell, a Voronoi cell), ready to be written as
/// a feature of a zone file.
public struct GeneratedZone: Sendable {
    /// The stable id: the same input gives the same ids.
    public let id: String
    public let name: String
    /// The area, in WGS84.
    public let geometry: Geometry
    /// Other properties to write beside `name`.
    public let properties: [String: JSONValue]

    /// Creates a zone to write.
    public init(id: String, name: String, geometry: Geometry, properties: [String: JSONValue] = [:]) {
        self.id = id
        self.name = name
        self.geometry = geometry
        self.properties = properties
    }

    /// The zones as a zone file: a FeatureCollection, feature `id` and `properties.name` set.
    public static func zoneFile(_ zones: [GeneratedZone]) -> JSONValue {
        .object(["type": .string("FeatureCollection"), "features": .array(zones.map { zone in
            var properties = zone.properties
            properties["name"] = .string(zone.name)
            return .object(["type": .string("Feature"), "id": .string(zone.id), "properties": .object(properties),
                            "geometry": zone.geometry.geoJSON ?? .null])
        })])
    }
}
