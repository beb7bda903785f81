import Foundation
import GeoKit
import JSONKit
import Zones

/// One place where a zone set does not tile its service area: a gap inside
/// the boundary that no zone covers, or an area two zones both cover.
public struct CoverageFinding: Sendable {
    /// Which of the two.
    public enum Kind: String, Sendable {
        case gap
        case overlap
    }

    public let kind: Kind
    /// The two zones of an overlap, smaller id first; empty for a gap.
    public let zones: [ZoneID]
    /// The area in square metres.
    public let squareMetres: Double
    /// A point inside the area, where a planner looks on the map.
    public let location: Coordinate
    /// The area itself, in WGS84.
    public let geometry: Geometry

    /// One line of text: `gap: 1.2 ha at lon,lat` or `overlap 12/13: 0.5 m² at lon,lat`.
    public var text: String {
        let what = kind == .gap ? "gap" : "overlap \(zones.map(\.text).joined(separator: "/"))"
        return "\(what): \(AreaMeasure.text(squareMetres)) at \(location.placeText)"
    }

    /// The finding as a GeoJSON Feature, for a map.
    public var feature: JSONValue {
        .object([
            "type": .string("Feature"),
            "properties": .object([
                "kind": .string(kind.rawValue),
                "zones": .array(zones.map { .string($0.text) }),
                "area_m2": .number((squareMetres * 10).rounded() / 10),
                "location": .array([.number(location.longitude), .number(location.latitude)]),
            ]),
            "geometry": geometry.geoJSON ?? .null,
        ])
    }
}
