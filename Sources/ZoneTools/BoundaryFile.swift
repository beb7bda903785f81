import GeoKit
import JSONKit
import Zones

/// A service-area boundary read from GeoJSON: a Polygon or MultiPolygon
/// geometry, a Feature holding one, or a FeatureCollection whose polygonal
/// features are joined into one area.
public enum BoundaryFile {
    /// Reads the boundary in the file at `path`.
    /// - Throws: ``ZoneToolError``: unreadable, not JSON, or no valid polygonal area
    ///   (each problem naming the feature, or `boundary`).
    public static func read(path: String) throws(ZoneToolError) -> Geometry {
        let file = try GeoJSONFile(path: path)
        let geometries: [(subject: String, geometry: JSONValue?)]
        switch file.document["type"]?.scalarText {
        case "FeatureCollection":
            geometries = try file.features().enumerated().map { index, feature in
                (GeoJSONFile.subject(of: feature, index: index, idProperty: nil), feature["geometry"])
            }
        case "Feature": geometries = [("boundary", file.document["geometry"])]
        default: geometries = [("boundary", file.document)]
        }
        var parts: [Geometry] = []
        var problems: [ZoneProblem] = []
        for (subject, json) in geometries {
            do {
                let read = try GeoJSONPolygons(geometry: json)
                let polygons = try read.polygons.map { rings in
                    try Geometry.polygon(exterior: rings[0], holes: Array(rings.dropFirst()))
                }
                let geometry = try Geometry.multiPolygon(polygons)
                let validity = geometry.validity
                if validity.isValid {
                    parts.append(geometry)
                } else {
                    let place = validity.location.map { " at \($0)" } ?? ""
                    problems.append(ZoneProblem(subject: subject, message:
                        "invalid boundary: \(validity.reason ?? "invalid geometry")\(place) (mytaxi zones repair can fix it)"))
                }
            } catch let error as GeoJSONGeometryError {
                problems.append(ZoneProblem(subject: subject, message: "boundary \(error.description)"))
            } catch {
                problems.append(ZoneProblem(subject: subject, message: "boundary cannot be built: \(error)"))
            }
        }
        if parts.isEmpty && problems.isEmpty {
            problems.append(ZoneProblem(subject: "boundary", message: "the file holds no polygon"))
        }
        if !problems.isEmpty { throw .invalidData(path: path, problems: problems) }
        do {
            guard let area = try Geometry.collection(parts).unaryUnion().polygonal() else {
                throw ZoneToolError.invalidData(path: path, problems: [ZoneProblem(subject: "boundary", message: "the boundary has no area")])
            }
            return area
        } catch let error as ZoneToolError {
            throw error
        } catch {
            throw .invalidData(path: path, problems: [ZoneProblem(subject: "boundary", message: "\(error)")])
        }
    }
}
