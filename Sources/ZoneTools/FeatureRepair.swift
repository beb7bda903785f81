import Foundation
import GeoKit
import JSONKit
import Zones

/// The repair of one feature of a zone file: what was changed, or why it
/// was left as it was.
///
/// Safe repairs are the ones with a single reading: ring winding set to
/// RFC 7946's, repeated consecutive positions dropped, and an invalid
/// geometry made valid when GEOS's two MakeValid methods (linework and
/// structure) agree on its area to within ``agreementTolerance`` and the
/// result adds no area outside the exterior rings as drawn; only the
/// polygons of the result are kept. Anything else (malformed coordinates,
/// unclosed or too short rings, a geometry the two methods read
/// differently, a hole that would become an area of its own, one with no
/// area left) is named and left untouched.
public struct FeatureRepair: Sendable {
    /// What happened to the feature.
    public enum Outcome: Sendable, Equatable {
        /// Nothing needed repair.
        case unchanged
        /// Repaired; each entry says one change, in words.
        case repaired([String])
        /// Not safe to repair; left exactly as it was, for the reason given.
        case leftAsIs(String)
    }

    /// The share of the area by which the two MakeValid readings may differ
    /// and still count as one reading, and by which the result may reach past
    /// the exterior rings (0.1 %), above a floor of 1 m² that absorbs
    /// floating-point noise on small zones.
    public static let agreementTolerance = 0.001

    /// The feature's id, or `#N` (see ``GeoJSONFile/subject(of:index:idProperty:)``).
    public let subject: String
    /// What happened.
    public let outcome: Outcome
    /// The feature to write: repaired, or as read.
    public let feature: JSONValue

    /// Repairs the feature at position `index` of a zone file.
    public init(feature: JSONValue, index: Int, idProperty: String?) {
        subject = GeoJSONFile.subject(of: feature, index: index, idProperty: idProperty)
        let repaired: (outcome: Outcome, geometry: JSONValue?)
        do {
            repaired = try Self.repair(feature)
        } catch {
            repaired = (.leftAsIs("\(error)"), nil)
        }
        outcome = repaired.outcome
        if let geometry = repaired.geometry, case .object(var members) = feature {
            members["geometry"] = geometry
            self.feature = .object(members)
        } else {
            self.feature = feature
        }
    }

    /// The outcome and, when repaired, the new geometry object.
    private static func repair(_ feature: JSONValue) throws -> (outcome: Outcome, geometry: JSONValue?) {
        guard case .string("Feature")? = feature["type"] else { return (.leftAsIs("not a GeoJSON Feature"), nil) }
        let read: GeoJSONPolygons
        do {
            read = try GeoJSONPolygons(geometry: feature["geometry"])
        } catch {
            return (.leftAsIs(error.description), nil)
        }
        var polygons: [[[Coordinate]]] = []
        var ringErrors: [String] = []
        var reversed = 0
        var repeats = 0
        for (polygonIndex, rings) in read.polygons.enumerated() {
            let prefix = read.type == "MultiPolygon" ? "polygon \(polygonIndex) " : ""
            polygons.append(rings.enumerated().map { ringIndex, ring in
                let check = RingCheck(ring, label: prefix + (ringIndex == 0 ? "exterior ring" : "hole \(ringIndex)"),
                                      isExterior: ringIndex == 0)
                ringErrors += check.errors
                reversed += check.reversed ? 1 : 0
                repeats += check.removedRepeats
                return check.ring
            })
        }
        if !ringErrors.isEmpty { return (.leftAsIs(ringErrors.joined(separator: "; ")), nil) }

        var changes: [String] = []
        if reversed > 0 {
            changes.append("winding of \(reversed) ring(s) set to RFC 7946's (exteriors counter-clockwise, holes clockwise)")
        }
        if repeats > 0 { changes.append("\(repeats) repeated position(s) removed") }
        let parts = try polygons.map { try Geometry.polygon(exterior: $0[0], holes: Array($0.dropFirst())) }
        let geometry = read.type == "Polygon" ? parts[0] : try Geometry.multiPolygon(parts)
        let validity = geometry.validity
        if validity.isValid {
            if changes.isEmpty { return (.unchanged, nil) }
            return (.repaired(changes), GeoJSONPolygons(type: read.type, polygons: polygons).geoJSON)
        }

        let place = validity.location.map { " at \($0.placeText)" } ?? ""
        let problem = "\(validity.reason ?? "invalid geometry")\(place)"
        guard let structure = try geometry.makeValid(method: .structure).polygonal(),
              let linework = try geometry.makeValid(method: .linework).polygonal(),
              let center = structure.boundingBox?.center else {
            return (.leftAsIs("\(problem): no area is left once made valid"), nil)
        }
        let measure = try AreaMeasure(center: center)
        let area = try measure.squareMetres(of: structure)
        let noise = max(1, area * agreementTolerance)
        let disagreement = try measure.squareMetres(of: structure.symmetricDifference(linework))
        if disagreement > noise {
            return (.leftAsIs("\(problem): the drawing can be read two ways, whose areas differ by "
                + "\(AreaMeasure.text(disagreement)) (\(percent(disagreement, of: area))); redraw it"), nil)
        }
        let exteriors = try Geometry.multiPolygon(polygons.map { try Geometry.polygon(exterior: $0[0]) })
        let added = try measure.squareMetres(of: structure.difference(exteriors.makeValid(method: .structure)))
        if added > noise {
            return (.leftAsIs("\(problem): making it valid would add \(AreaMeasure.text(added)) outside its "
                + "exterior rings (a hole outside its shell?); redraw it"), nil)
        }
        let pieces = structure.polygons.count
        let shape = pieces == 1 ? "one polygon" : "\(pieces) polygons"
        changes.append("made valid (was: \(problem)): \(shape), \(AreaMeasure.text(area))")
        return (.repaired(changes), structure.geoJSON)
    }

    private static func percent(_ part: Double, of whole: Double) -> String {
        whole > 0 ? String(format: "%.1f %%", part / whole * 100) : "all of it"
    }
}
