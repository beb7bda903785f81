import Foundation
import GeoKit

/// Errors of snapping a coordinate onto the road graph.
public enum SnapError: Error, Equatable, CustomStringConvertible {
    /// The nearest road is farther than the limit (or the graph has no
    /// edges: distance infinite); `swappedIsNear` when the point with its
    /// longitude and latitude exchanged would lie within the limit (a
    /// caller who wrote lat,lon).
    case tooFarFromRoad(distanceMetres: Double, limitMetres: Double, swappedIsNear: Bool = false)
    /// Roads lie near, but within `withinMetres` every one is a road no taxi
    /// may stop on (motorways, trunk roads: ``MeetingPoints``).
    case noRoadToStopOn(withinMetres: Double)

    public var description: String {
        switch self {
        case let .tooFarFromRoad(distance, limit, swappedIsNear):
            "nearest road is \(Int(distance.rounded())) m away, beyond the \(Int(limit.rounded())) m snapping limit"
                + (swappedIsNear ? "; longitude and latitude look swapped: give the longitude first (LON,LAT)" : "")
        case let .noRoadToStopOn(within):
            "every road within \(Int(within.rounded())) m is a motorway or trunk road, where no taxi may stop: choose a place nearer a street"
        }
    }
}

/// Finds the nearest point on the nearest edge of a ``RoadGraph``.
///
/// Coordinates are placed on a local equirectangular projection centred on
/// the graph's mean latitude, accurate to well under a metre across a city,
/// and looked up in a ``SegmentGrid`` of the graph's road segments (built
/// here, in about a tenth of a second per million edges). Both edges of a
/// two-way road lie on the same line and are indexed once, as the
/// lower-numbered; routing adds its reverse twin itself. Of roads equally
/// near (at a junction) the lowest-numbered edge wins.
///
/// ``candidates(_:maxDistanceMetres:radiusMetres:limit:)`` also lists the
/// other roads near the point, for routers that let the path search choose
/// among them rather than trust the nearest (GPS in street canyons is often
/// closer to the wrong road).
public struct Snapper: Sendable {
    /// A coordinate placed on the road graph.
    public struct Snap: Sendable, Equatable {
        /// The edge the point was projected onto.
        public var edge: Int
        /// Where along the edge, from its tail (0) to its head (1).
        public var fraction: Double
        /// Distance from the coordinate to the projected point, in metres.
        public var distanceMetres: Double
        /// The projected point.
        public var point: Coordinate
    }

    /// The node each edge leaves (the graph's CSR only stores heads).
    public let edgeTail: [UInt32]
    private let edgeHead: [UInt32]
    private let xScale: Double, yScale: Double
    private let grid: SegmentGrid

    /// Indexes every road segment of `graph`.
    public init(graph: RoadGraph) {
        let metresPerDegree = Coordinate.earthRadiusMetres * .pi / 180
        let meanLatitude = graph.coordinates.isEmpty ? 0
            : graph.coordinates.reduce(0) { $0 + $1.latitude } / Double(graph.nodeCount)
        let xScale = metresPerDegree * cos(meanLatitude * .pi / 180), yScale = metresPerDegree
        self.xScale = xScale
        self.yScale = yScale
        let edgeTail = graph.edgeTails()
        self.edgeTail = edgeTail
        edgeHead = graph.edgeHead
        grid = SegmentGrid(x: graph.coordinates.map { $0.longitude * xScale }, y: graph.coordinates.map { $0.latitude * yScale },
                           firstEdge: graph.firstEdge, edgeHead: graph.edgeHead, edgeTail: edgeTail,
                           margin: Self.gridMarginMetres)
    }

    /// How far beyond each cell of the grid its list of roads reaches: the
    /// router's candidate radius, within which most fixes lie of their road,
    /// so that snapping one reads a single cell.
    static let gridMarginMetres = RoadRouter.defaultSnapRadiusMetres

    /// The nearest point on any edge to `coordinate`.
    /// - Throws: ``SnapError/tooFarFromRoad(distanceMetres:limitMetres:swappedIsNear:)`` when
    ///   that point is more than `maxDistanceMetres` away, naming its distance.
    public func snap(_ coordinate: Coordinate, maxDistanceMetres: Double) throws -> Snap {
        guard let found = grid.nearest(coordinate.longitude * xScale, coordinate.latitude * yScale,
                                       within: maxDistanceMetres) else {
            throw tooFar(coordinate, limitMetres: maxDistanceMetres)
        }
        return makeSnap(found)
    }

    /// The ways onto the road graph near `coordinate`: the nearest snap (as
    /// ``snap(_:maxDistanceMetres:)``), then the nearest point of every other
    /// road whose projection lies strictly within `radiusMetres`, nearest
    /// first, at most `limit` in all.
    ///
    /// An edge and its reverse twin are one road and give one candidate (the
    /// router seeds both directions of a road itself), and roads whose
    /// nearest point is the junction they share give one candidate there
    /// (starting at a junction is the same whichever road names it), so the
    /// limit goes to places that differ. A radius of 0 gives the nearest snap
    /// alone.
    /// - Throws: ``SnapError/tooFarFromRoad(distanceMetres:limitMetres:swappedIsNear:)`` when
    ///   the nearest road is more than `maxDistanceMetres` away.
    public func candidates(_ coordinate: Coordinate, maxDistanceMetres: Double, radiusMetres: Double,
                           limit: Int = 8) throws -> [Snap] {
        Array(try snapCandidates(coordinate, maxDistanceMetres: maxDistanceMetres, radiusMetres: radiusMetres,
                                 limit: limit))
    }

    /// ``candidates(_:maxDistanceMetres:radiusMetres:limit:)`` as the router keeps them.
    func snapCandidates(_ coordinate: Coordinate, maxDistanceMetres: Double, radiusMetres: Double,
                        limit: Int) throws -> SnapCandidates {
        guard let found = snapCandidatesIfNear(coordinate, maxDistanceMetres: maxDistanceMetres,
                                               radiusMetres: radiusMetres, limit: limit)
        else { throw tooFar(coordinate, limitMetres: maxDistanceMetres) }
        return found
    }

    /// As ``candidates(_:maxDistanceMetres:radiusMetres:limit:)``, but nil
    /// when the nearest road is beyond `maxDistanceMetres`, without measuring
    /// how far it is (which scans every edge): for snapping a moving fleet,
    /// whose taxis leave the map now and then.
    public func candidatesIfNear(_ coordinate: Coordinate, maxDistanceMetres: Double, radiusMetres: Double,
                                 limit: Int = 8) -> [Snap]? {
        snapCandidatesIfNear(coordinate, maxDistanceMetres: maxDistanceMetres, radiusMetres: radiusMetres,
                             limit: limit).map(Array.init)
    }

    /// ``candidatesIfNear(_:maxDistanceMetres:radiusMetres:limit:)`` of each
    /// of `coordinates`, index for index: the way to snap many points (a
    /// fleet's moves, a table's sources). It allocates no more than one list
    /// of the roads near a point, kept for the whole batch, and one array
    /// for the candidates beyond the nearest of every point, whose
    /// ``SnapCandidates`` are slices of it. Both belong to the call:
    /// several threads may snap at once.
    public func candidatesIfNear(_ coordinates: [Coordinate], maxDistanceMetres: Double, radiusMetres: Double,
                                 limit: Int = 8) -> [SnapCandidates?] {
        var nearby: [SegmentGrid.Hit] = []
        var others: [Snap] = []
        let found = coordinates.map { coordinate -> (nearest: Snap, othersEnd: Int)? in
            guard let nearest = nearestIfNear(coordinate, maxDistanceMetres: maxDistanceMetres,
                                              radiusMetres: radiusMetres, limit: limit, nearby: &nearby, others: &others)
            else { return nil }
            return (nearest, others.count)
        }
        var othersStart = 0
        return found.map { found in
            guard let found else { return nil }
            defer { othersStart = found.othersEnd }
            return SnapCandidates(nearest: found.nearest, others: others[othersStart..<found.othersEnd])
        }
    }

    /// The candidates of one `coordinate`, nil when the nearest road is beyond `maxDistanceMetres`.
    private func snapCandidatesIfNear(_ coordinate: Coordinate, maxDistanceMetres: Double, radiusMetres: Double,
                                      limit: Int) -> SnapCandidates? {
        var nearby: [SegmentGrid.Hit] = [], others: [Snap] = []
        guard let nearest = nearestIfNear(coordinate, maxDistanceMetres: maxDistanceMetres, radiusMetres: radiusMetres,
                                          limit: limit, nearby: &nearby, others: &others)
        else { return nil }
        return SnapCandidates(nearest: nearest, others: others[...])
    }

    /// The nearest snap of `coordinate`, nil beyond `maxDistanceMetres`,
    /// appending its other candidates, nearest first, to `others`; the roads
    /// near it are gathered in `nearby`, emptied first.
    private func nearestIfNear(_ coordinate: Coordinate, maxDistanceMetres: Double, radiusMetres: Double,
                               limit: Int, nearby: inout [SegmentGrid.Hit], others: inout [Snap]) -> Snap? {
        let px = coordinate.longitude * xScale, py = coordinate.latitude * yScale
        let radius = radiusMetres > 0 && limit > 1 ? radiusMetres : 0
        nearby.removeAll(keepingCapacity: true)
        guard let best = grid.nearest(px, py, within: maxDistanceMetres, collectingWithin: radius, into: &nearby)
        else { return nil }
        guard nearby.count > 1 else { return makeSnap(best) }
        nearby.sort { ($0.distance, $0.edge) < ($1.distance, $1.edge) }
        let nearest = makeSnap(best), first = others.count
        for hit in nearby where others.count - first + 1 < limit {
            let candidate = makeSnap(hit)
            if candidate.fraction == 0 || candidate.fraction == 1 {
                if onSameNode(candidate, nearest) || others[first...].contains(where: { onSameNode($0, candidate) }) {
                    continue
                }
            } else if candidate.edge == nearest.edge {
                continue
            }
            others.append(candidate)
        }
        return nearest
    }

    /// The error for `coordinate` lying beyond `limitMetres` of every road,
    /// naming how far the nearest one is: found by scanning every segment,
    /// which only a failure pays for.
    private func tooFar(_ coordinate: Coordinate, limitMetres: Double) -> SnapError {
        let distance = grid.distanceToEverySegment(coordinate.longitude * xScale, coordinate.latitude * yScale)
        let swappedIsNear = grid.nearest(coordinate.latitude * xScale, coordinate.longitude * yScale, within: limitMetres) != nil
        return .tooFarFromRoad(distanceMetres: distance, limitMetres: limitMetres, swappedIsNear: swappedIsNear)
    }

    /// Whether two snaps start a route at the same node: both fall on an end
    /// of their edge (every road meeting there gives the same start) and it
    /// is the same node. Two snaps inside roads never start at the same
    /// place unless they name the same edge: the grid lists one segment per
    /// pair of nodes (an edge and its twin, or parallel edges, are one
    /// road), so only snaps on nodes need telling apart.
    ///
    /// The edges' nodes are read only for snaps at the same place (within
    /// half a metre: one node placed from two cells' single-precision copies
    /// differs by millimetres at most): they lie scattered over megabytes,
    /// and reading them cost a cache miss for each candidate on a node.
    private func onSameNode(_ first: Snap, _ second: Snap) -> Bool {
        guard abs(first.point.longitude - second.point.longitude) * xScale < Self.samePlaceMetres,
              abs(first.point.latitude - second.point.latitude) * yScale < Self.samePlaceMetres,
              let firstNode = node(edge: first.edge, fraction: first.fraction)
        else { return false }
        return firstNode == node(edge: second.edge, fraction: second.fraction)
    }

    /// The node at the end of `edge` that `fraction` falls on, nil inside the edge.
    private func node(edge: Int, fraction: Double) -> UInt32? {
        if fraction == 0 { return edgeTail[edge] }
        if fraction == 1 { return edgeHead[edge] }
        return nil
    }

    /// How near two snaps on nodes must lie for ``onSameNode(_:_:)`` to read which nodes they are on.
    private static let samePlaceMetres = 0.5

    /// The snap a grid hit describes, its point back in degrees.
    private func makeSnap(_ hit: SegmentGrid.Hit) -> Snap {
        Snap(edge: hit.edge, fraction: hit.fraction, distanceMetres: hit.distance,
             point: Coordinate(longitude: hit.x / xScale, latitude: hit.y / yScale))
    }
}
