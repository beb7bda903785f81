import GeoKit
import JSONKit

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
            if let problem = Self.textProblem(text, what: "id", longest: Self.longestId) {
                subject = "#\(index)"
                problems.append(ZoneProblem(subject: subject, message: problem))
                return
            }
            id = ZoneID(text)
            subject = text
        } else {
            subject = "#\(index)"
            let source = options.idProperty.map { "property \"\($0)\"" } ?? "\"id\" (feature id or properties.id)"
            problems.append(ZoneProblem(subject: subject, message: "missing id: no \(source)"))
        }
        let name: String
        if let text = properties[options.nameProperty]?.scalarText, !text.isEmpty {
            if let problem = Self.textProblem(text, what: "name", longest: Self.longestName) {
                problems.append(ZoneProblem(subject: subject, message: problem))
            }
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

    /// The longest zone id accepted, in characters: ids go into URLs and every dispatcher's screen.
    static let longestId = 64
    /// The longest zone name accepted, in characters.
    static let longestName = 200

    /// Why `text`, a zone's `what`, cannot be shown as it is: too long, or
    /// holding control characters (a line break, a NUL, an escape) that
    /// would garble a dispatcher's list or a log line; nil when it is fine.
    static func textProblem(_ text: String, what: String, longest: Int) -> String? {
        if text.count > longest {
            return "\(what) too long: \(text.count) characters, at most \(longest)"
        }
        if let control = text.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
            let code = "U+" + String(control.value, radix: 16, uppercase: true).leftPadded(to: 4)
            return "\(what) holds the control character \(code); zone \(what)s are plain text on one line"
        }
        return nil
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

extension String {
    /// The text with zeros before it up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
