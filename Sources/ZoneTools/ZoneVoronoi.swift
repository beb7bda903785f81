import GeoKit
import JSONKit
import Zones

/// `mytaxi zones voronoi --boundary FILE --sites FILE`: one zone per taxi
/// rank, the part of the service area nearer to it than to any other rank.
///
/// Distances are measured on a local projection in metres; each cell is
/// clipped to the boundary and takes its rank's id, so ids stay stable as
/// ranks come and go.
public enum ZoneVoronoi {
    /// The zone of each rank whose cell reaches into `boundary`, in rank order.
    /// - Throws: ``ZoneToolError/invalidData(path:problems:)`` naming ranks at the
    ///   same position (their cells cannot be told apart).
    public static func cells(boundary: Geometry, ranks: [TaxiRank], path: String) throws -> [GeneratedZone] {
        guard let center = boundary.boundingBox?.center else { return [] }
        var firstAt: [Coordinate: String] = [:]
        var problems: [ZoneProblem] = []
        for rank in ranks {
            if let other = firstAt[rank.position] {
                problems.append(ZoneProblem(subject: rank.id, message: "at the same position as rank \(other)"))
            } else {
                firstAt[rank.position] = rank.id
            }
        }
        if !problems.isEmpty { throw ZoneToolError.invalidData(path: path, problems: problems) }
        let projection = try LocalProjection(center: center)
        let area = try projection.project(boundary)
        let sites = projection.project(ranks.map(\.position))
        let extent = try Geometry.collection([area] + sites.map { try Geometry.point($0) })
        let cells = try Geometry.voronoiCells(of: sites, extent: extent).polygons.map { try PreparedGeometry($0) }
        return try zip(ranks, sites).compactMap { rank, site in
            guard let cell = cells.first(where: { $0.covers(site) }),
                  let clipped = try cell.geometry.intersection(area).polygonal() else { return nil }
            return GeneratedZone(id: rank.id, name: rank.name, geometry: try projection.unproject(clipped),
                                 properties: ["site": .array([.number(rank.position.longitude), .number(rank.position.latitude)])])
        }
    }
}
