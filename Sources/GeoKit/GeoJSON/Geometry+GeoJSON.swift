import JSONKit

extension Geometry {
    /// The geometry's polygons as a GeoJSON Polygon (one) or MultiPolygon
    /// (several) object, rings wound as RFC 7946 asks: exteriors
    /// counter-clockwise, holes clockwise; nil when it has no polygon.
    ///
    /// GEOS results come in any winding, so every ring is checked here.
    public var geoJSON: JSONValue? {
        let members = polygons.map { polygon in
            polygon.polygonRings.enumerated().map { index, ring in
                Geometry.wound(Geometry.withoutRepeats(ring), counterClockwise: index == 0)
            }
        }
        if members.isEmpty { return nil }
        return GeoJSONPolygons(type: members.count == 1 ? "Polygon" : "MultiPolygon", polygons: members).geoJSON
    }

    /// The ring without a position equal to the one before it: GEOS may
    /// leave such repeats where faces were joined, and a zone file with them
    /// reads back with a repair warning.
    static func withoutRepeats(_ ring: [Coordinate]) -> [Coordinate] {
        var kept: [Coordinate] = []
        kept.reserveCapacity(ring.count)
        for position in ring where kept.last != position { kept.append(position) }
        return kept
    }

    /// The ring in the asked winding (reversed when it runs the other way).
    static func wound(_ ring: [Coordinate], counterClockwise: Bool) -> [Coordinate] {
        guard let origin = ring.first else { return ring }
        var twiceArea = 0.0
        for index in 0..<(ring.count - 1) {
            let a = ring[index], b = ring[index + 1]
            twiceArea += (a.longitude - origin.longitude) * (b.latitude - origin.latitude)
                - (b.longitude - origin.longitude) * (a.latitude - origin.latitude)
        }
        return twiceArea != 0 && (twiceArea > 0) != counterClockwise ? ring.reversed() : ring
    }
}
