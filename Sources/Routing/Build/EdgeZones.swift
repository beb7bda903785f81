import GeoKit

/// The area zone of every edge of a graph (the taxi zone it lies in, by its
/// midpoint): what a ``SpeedProfile``'s per-zone speed factors key on.
///
/// Congestion follows place as much as road class (a Midtown avenue is
/// slower than the same avenue in Chelsea), and the zones a service already
/// prices and dispatches by are the natural areas to measure it in.
/// `mytaxi graph build --zones` fills it from a zone file; the routing layer
/// only sees zone ids and a lookup, never the zone geometry. Only zones some
/// edge lies in are kept, in the order first met.
public struct EdgeZones: Sendable, Equatable {
    /// The value of ``edgeZone`` for an edge outside every zone.
    public static let noZone = UInt16.max

    /// The ids (as in the zone file) of the zones edges lie in.
    public var zoneIDs: [String]
    /// Per edge, an index into ``zoneIDs``, or ``noZone``.
    public var edgeZone: [UInt16]

    /// Creates the table from its parts.
    /// - Precondition: every entry of `edgeZone` is ``noZone`` or an index into `zoneIDs`.
    public init(zoneIDs: [String], edgeZone: [UInt16]) {
        precondition(zoneIDs.count < Int(Self.noZone) && edgeZone.allSatisfy { $0 == Self.noZone || Int($0) < zoneIDs.count })
        self.zoneIDs = zoneIDs
        self.edgeZone = edgeZone
    }

    /// Assigns each edge of `graph` the zone its midpoint lies in.
    /// - Parameters:
    ///   - graph: the graph.
    ///   - zoneIDs: the id of every zone the lookup can answer, by position.
    ///   - zoneAt: the position in `zoneIDs` of the zone containing a point, or nil.
    public init(graph: RoadGraph, zoneIDs: [String], zoneAt: (Coordinate) -> Int?) {
        var kept: [Int: UInt16] = [:]
        var keptIDs: [String] = []
        let tails = graph.edgeTails()
        let edgeZone = (0..<graph.edgeCount).map { edge -> UInt16 in
            let tail = graph.coordinates[Int(tails[edge])], head = graph.coordinates[Int(graph.edgeHead[edge])]
            let midpoint = Coordinate(longitude: (tail.longitude + head.longitude) / 2,
                                      latitude: (tail.latitude + head.latitude) / 2)
            guard let position = zoneAt(midpoint) else { return Self.noZone }
            if let index = kept[position] { return index }
            let index = UInt16(keptIDs.count)
            kept[position] = index
            keptIDs.append(zoneIDs[position])
            return index
        }
        self.init(zoneIDs: keptIDs, edgeZone: edgeZone)
    }

    /// The id of the zone `edge` lies in, or nil.
    public func zoneID(ofEdge edge: Int) -> String? {
        edgeZone[edge] == Self.noZone ? nil : zoneIDs[Int(edgeZone[edge])]
    }
}
