import JSONKit

extension GeoJSONPolygons {
    /// The geometry as a GeoJSON object: `{"type", "coordinates"}`, nested
    /// as its type asks (a Polygon's rings; a MultiPolygon's polygons of rings).
    public var geoJSON: JSONValue {
        func rings(_ rings: [[Coordinate]]) -> JSONValue {
            .array(rings.map { .array($0.map { .array([.number($0.longitude), .number($0.latitude)]) }) })
        }
        let coordinates: JSONValue = type == "Polygon" ? rings(polygons.first ?? []) : .array(polygons.map(rings))
        return .object(["type": .string(type), "coordinates": coordinates])
    }
}
