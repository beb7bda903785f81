import GeoKit
import JSONKit
import Zones

/// `mytaxi zones import FILE --from-crs EPSG:NNNN`: a zone file drawn in a
/// projected CRS (a city's state-plane or national grid) reprojected with
/// PROJ to WGS84 longitude and latitude, as RFC 7946 asks.
public struct ZoneImport: Sendable {
    /// The reprojected file, every other member as read, any `crs` member dropped.
    public let document: JSONValue
    /// How many features were reprojected.
    public let features: Int

    /// Reprojects every Polygon and MultiPolygon feature of `file` from `crs`.
    /// - Throws: ``ZoneToolError/invalidData(path:problems:)`` naming each feature
    ///   whose geometry is malformed or lies outside the CRS's area.
    public init(file: GeoJSONFile, crs: CRSTransform, idProperty: String?) throws(ZoneToolError) {
        var problems: [ZoneProblem] = []
        let features = try file.features().enumerated().map { index, feature -> JSONValue in
            let subject = GeoJSONFile.subject(of: feature, index: index, idProperty: idProperty)
            do {
                let read = try GeoJSONPolygons(geometry: feature["geometry"])
                let polygons = read.polygons.map { rings in rings.map { crs.transform($0) } }
                if let bad = polygons.joined().joined().first(where: { !$0.isInRange }) {
                    problems.append(ZoneProblem(subject: subject, message:
                        "a position comes out as \(bad), not longitude and latitude: is \(crs.source) the file's CRS?"))
                    return feature
                }
                guard case .object(var members) = feature else { return feature }
                members["geometry"] = GeoJSONPolygons(type: read.type, polygons: polygons).geoJSON
                return .object(members)
            } catch {
                problems.append(ZoneProblem(subject: subject, message: "\(error)"))
                return feature
            }
        }
        if !problems.isEmpty { throw .invalidData(path: file.path, problems: problems) }
        guard case .object(var members) = file.replacingFeatures(features) else {
            throw .invalidData(path: file.path, problems: [ZoneProblem(subject: "file", message: "not a JSON object")])
        }
        members["crs"] = nil
        document = .object(members)
        self.features = features.count
    }
}
