import GeoKit

/// Which zones are next to which (SPEC Z5), for fallback dispatch: when a
/// zone has no free taxi, its neighbours are asked first.
public struct ZoneNeighbours: Sendable {
    /// One neighbour of a zone and how far apart the two are.
    public struct Neighbour: Sendable, Equatable {
        public var id: ZoneID
        /// Shortest distance between the two areas in metres; 0 when they touch.
        public var distanceMetres: Double
        /// True when the two zones share a stretch of border (or overlap).
        public var sharesBorder: Bool
    }

    /// For each zone id, its neighbours in ascending id order.
    public let neighbours: [ZoneID: [Neighbour]]

    /// Finds, for every zone of `zoneSet`, the zones that share a border with
    /// it and, when `withinMetres` is given, the zones no farther than that.
    ///
    /// Distances are measured by GEOS on the zones projected with a local
    /// azimuthal-equidistant projection (PROJ) centred on the zone set.
    /// Zones meeting at a single point do not share a border.
    public init(zoneSet: ZoneSet, withinMetres: Double? = nil) throws {
        let zones = zoneSet.zones
        var found: [ZoneID: [Neighbour]] = Dictionary(uniqueKeysWithValues: zones.map { ($0.id, []) })
        guard let center = zoneSet.boundingBox?.center else {
            neighbours = found
            return
        }
        let projection = try LocalProjection(center: center)
        let projected = try zones.map { try projection.project($0.geometry) }
        let boxes = projected.map { $0.boundingBox ?? BoundingBox(minX: 0, minY: 0, maxX: 0, maxY: 0) }
        let reach = max(withinMetres ?? 0, 0) + 0.01
        for first in zones.indices {
            for second in (first + 1)..<zones.count where boxes[first].expanded(by: reach).intersects(boxes[second]) {
                let matrix = try zones[first].geometry.relate(zones[second].geometry)
                let interiors = matrix[matrix.startIndex]
                let boundaries = matrix[matrix.index(matrix.startIndex, offsetBy: 4)]
                let sharesBorder = interiors == "2" || boundaries == "1"
                let distance = sharesBorder ? 0 : try projected[first].distance(to: projected[second])
                guard sharesBorder || (withinMetres.map { distance <= $0 } ?? false) else { continue }
                found[zones[first].id]?.append(Neighbour(id: zones[second].id, distanceMetres: distance,
                                                         sharesBorder: sharesBorder))
                found[zones[second].id]?.append(Neighbour(id: zones[first].id, distanceMetres: distance,
                                                          sharesBorder: sharesBorder))
            }
        }
        neighbours = found.mapValues { $0.sorted { $0.id < $1.id } }
    }

    /// The neighbours of the zone `id` (empty for an unknown id).
    public subscript(id: ZoneID) -> [Neighbour] { neighbours[id] ?? [] }
}
