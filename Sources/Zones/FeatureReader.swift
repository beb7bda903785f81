import GeoKit

/// Reads one feature of a zone file into a ``Zone``, collecting every
/// problem and repair with the feature's id (or `#index`) as subject.
struct FeatureReader {
    private(set) var id: ZoneID?
    private(set) var zone: Zone?
    private(set) var problems: [ZoneProblem] = []
    private(set) var warnings: [ZoneProblem] = []
    private(set) var nameMissing = false
    private let subject: String

    init(feature: JSONValue, index: Int, options: ZoneFileOptions) {
        guard case .object(let members) = feature, case .string("Feature")? = members["type"] else {
            subject = "#\(index)"
            problems.append(ZoneProblem(subject: subject, message: "not a GeoJSON Feature"))
            return
        }
        let properties: [String: JSONValue]
        if case .object(let values)? = members["properties"] { properties = values } else { properties = [:] }

        let rawId: JSONValue? = if let idProperty = options.idProperty {
            properties[idProperty]
        } else {
            members["id"] ?? properties["id"]
        }
        if let text = rawId?.scalarText, !text.isEmpty {
            id = ZoneID(text)
            subject = text
        } else {
            subject = "#\(index)"
            let source = options.idProperty.map { "property \"\($0)\"" } ?? "\"id\" (feature id or properties.id)"
            problems.append(ZoneProblem(subject: subject, message: "missing id: no \(source)"))
        }
        let name: String
        if let text = properties[options.nameProperty]?.scalarText, !text.isEmpty {
            name = text
        } else {
            nameMissing = true
            name = id?.text ?? subject
        }

        let polygons: GeoJSONPolygons
        do {
            polygons = try GeoJSONPolygons(geometry: members["geometry"])
        } catch {
            problems.append(ZoneProblem(subject: subject, message: error.description))
            return
        }
        guard let geometry = buildGeometry(polygons) else { return }
        if let id, problems.isEmpty {
            zone = Zone(id: id, name: name, geometry: geometry, properties: properties)
        }
    }

    /// Checks and repairs every ring, then builds and validates the GEOS geometry.
    private mutating func buildGeometry(_ polygons: GeoJSONPolygons) -> Geometry? {
        var repaired: [[[Coordinate]]] = []
        var reversedRings = 0
        var removedRepeats = 0
        var ringErrors: [String] = []
        for (polygonIndex, rings) in polygons.polygons.enumerated() {
            var checkedRings: [[Coordinate]] = []
            for (ringIndex, ring) in rings.enumerated() {
                let prefix = polygons.type == "MultiPolygon" ? "polygon \(polygonIndex) " : ""
                let label = prefix + (ringIndex == 0 ? "exterior ring" : "hole \(ringIndex)")
                let check = RingCheck(ring, label: label, isExterior: ringIndex == 0)
                ringErrors += check.errors
                reversedRings += check.reversed ? 1 : 0
                removedRepeats += check.removedRepeats
                checkedRings.append(check.ring)
            }
            repaired.append(checkedRings)
        }
        if !ringErrors.isEmpty {
            problems += ringErrors.map { ZoneProblem(subject: subject, message: $0) }
            return nil
        }
        let geometry: Geometry
        do {
            let parts = try repaired.map { try Geometry.polygon(exterior: $0[0], holes: Array($0.dropFirst())) }
            geometry = parts.count == 1 && polygons.type == "Polygon" ? parts[0] : try Geometry.multiPolygon(parts)
        } catch {
            problems.append(ZoneProblem(subject: subject, message: "geometry cannot be built: \(error)"))
            return nil
        }
        let validity = geometry.validity
        if !validity.isValid {
            let place = validity.location.map { " at \($0)" } ?? ""
            problems.append(ZoneProblem(subject: subject, message:
                "invalid geometry: \(validity.reason ?? "unknown reason")\(place)"))
            return nil
        }
        var repairs: [String] = []
        if reversedRings > 0 {
            repairs.append("winding of \(reversedRings) ring(s) reversed to RFC 7946 order "
                + "(exteriors counter-clockwise, holes clockwise)")
        }
        if removedRepeats > 0 { repairs.append("\(removedRepeats) repeated position(s) removed") }
        if !repairs.isEmpty {
            warnings.append(ZoneProblem(subject: subject, message: "repaired: " + repairs.joined(separator: "; "),
                                        severity: .warning))
        }
        return geometry
    }
}
