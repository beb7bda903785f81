import GeoKit
import JSONKit
import Zones

/// `mytaxi zones simplify --tolerance METRES`: fewer vertices for the whole
/// zone set at once, keeping its topology: a border two zones share is
/// simplified once, so it stays shared, and no gap or overlap appears.
///
/// How: the zones are projected to metres (a local azimuthal-equidistant
/// projection), their boundaries are noded into the arcs between junctions
/// (where three or more zones, or a zone and the outside, meet), the arcs
/// are simplified one by one with GEOS's topology-preserving simplifier (arc
/// ends stay), an arc that would then cross another is kept as it was, the
/// faces the arcs enclose are rebuilt, and each face goes back to the zone
/// that held most of it.
/// Faces held by no zone (gaps, water) stay outside every zone; where two
/// zones overlapped, the face goes to the one that held more of it.
public struct ZoneSimplify: Sendable {
    /// The simplified zones, by id, in WGS84.
    public let geometries: [ZoneID: Geometry]
    /// Positions in all zones before and after (closing positions of rings included).
    public let verticesBefore: Int
    public let verticesAfter: Int

    /// Simplifies `zoneSet` so that no border moves more than `toleranceMetres`.
    /// - Throws: ``ZoneToolError/invalidData(path:problems:)`` naming a zone that
    ///   would vanish (smaller than the tolerance), or a GEOS or PROJ error.
    public init(zoneSet: ZoneSet, toleranceMetres: Double, path: String,
                progress: (String) -> Void = { _ in }) throws {
        guard let center = zoneSet.boundingBox?.center else {
            throw ZoneToolError.invalidData(path: path, problems: [ZoneProblem(subject: "file", message: "no zones")])
        }
        let projection = try LocalProjection(center: center)
        let zones = zoneSet.zones
        let projected = try zones.map { try projection.project($0.geometry) }
        progress("noding the borders of \(zones.count) zones")
        let borders = try Geometry.collection(projected.map { try $0.boundary() }).unaryUnion()
        let arcs = try borders.lineMerged().lines
        progress("simplifying \(arcs.count) borders")
        let simplified = try Self.simplify(arcs, toleranceMetres: toleranceMetres)
        progress("rebuilding the zones")
        let faces = try Geometry.collection(simplified).polygonized().polygons
        let owners = try Self.owners(of: faces, zones: projected)
        var facesByZone: [Int: [Geometry]] = [:]
        for (face, owner) in zip(faces, owners) {
            if let owner { facesByZone[owner, default: []].append(face) }
        }
        var geometries: [ZoneID: Geometry] = [:]
        var lost: [ZoneProblem] = []
        for (position, zone) in zones.enumerated() {
            guard let pieces = facesByZone[position],
                  let joined = try Geometry.collection(pieces).unaryUnion().polygonal() else {
                lost.append(ZoneProblem(subject: zone.id.text, message:
                    "the zone would vanish at a tolerance of \(toleranceMetres) m: use a smaller one"))
                continue
            }
            geometries[zone.id] = try projection.unproject(joined)
        }
        if !lost.isEmpty { throw ZoneToolError.invalidData(path: path, problems: lost) }
        self.geometries = geometries
        verticesBefore = zones.reduce(0) { $0 + $1.geometry.vertexCount }
        verticesAfter = geometries.values.reduce(0) { $0 + $1.vertexCount }
    }

    /// Each arc simplified on its own (topology-preserving, so it does not
    /// cross itself), then every arc that would cross or touch another
    /// anywhere but at their ends put back as it was, until none does.
    ///
    /// GEOS 3.11's simplifier, given all arcs at once, lets arcs cross where
    /// zones overlap by slivers; checking the pairs here keeps the arcs a
    /// planar graph, so that the faces they enclose are the zones' pieces.
    private static func simplify(_ arcs: [Geometry], toleranceMetres: Double) throws -> [Geometry] {
        var chosen = try arcs.map { try $0.simplified(tolerance: toleranceMetres) }
        var conflicts = try crossingArcs(chosen)
        while !conflicts.isEmpty {
            for position in conflicts { chosen[position] = arcs[position] }
            conflicts = try crossingArcs(chosen)
        }
        return chosen
    }

    /// The positions of arcs meeting another arc anywhere but at the ends of both.
    private static func crossingArcs(_ arcs: [Geometry]) throws -> Set<Int> {
        let tree = try STRtree(arcs)
        var candidates: [Int] = []
        var crossing = Set<Int>()
        for (first, arc) in arcs.enumerated() {
            tree.query(arc, into: &candidates)
            for second in candidates where second > first {
                let matrix = Array(try arc.relate(arcs[second]))
                if matrix[0] != "F" || matrix[1] != "F" || matrix[3] != "F" {
                    crossing.insert(first)
                    crossing.insert(second)
                }
            }
        }
        return crossing
    }

    /// For each face, the position of the zone holding more than half of it, or nil.
    private static func owners(of faces: [Geometry], zones: [Geometry]) throws -> [Int?] {
        let tree = try STRtree(zones)
        var candidates: [Int] = []
        return try faces.map { face in
            tree.query(face, into: &candidates)
            var best: (position: Int, area: Double)?
            for position in candidates.sorted() {
                let shared = try face.intersection(zones[position]).area
                if shared > (best?.area ?? 0) { best = (position, shared) }
            }
            guard let best, best.area > face.area / 2 else { return nil }
            return best.position
        }
    }

    /// The zone file with each feature's geometry replaced by its simplified
    /// one, every other member as read.
    /// - Parameter idProperty: how the file names its zones (as loaded).
    public func document(from file: GeoJSONFile, idProperty: String?) throws(ZoneToolError) -> JSONValue {
        let features = try file.features().enumerated().map { index, feature -> JSONValue in
            let id = ZoneID(GeoJSONFile.subject(of: feature, index: index, idProperty: idProperty))
            guard let geometry = geometries[id]?.geoJSON, case .object(var members) = feature else { return feature }
            members["geometry"] = geometry
            return .object(members)
        }
        return file.replacingFeatures(features)
    }

    /// `N vertices before, M after (P % fewer)`.
    public var summary: String {
        let fewer = verticesBefore > 0 ? Double(verticesBefore - verticesAfter) / Double(verticesBefore) * 100 : 0
        return "\(verticesBefore) vertices before, \(verticesAfter) after (\((fewer * 10).rounded() / 10) % fewer)"
    }
}
