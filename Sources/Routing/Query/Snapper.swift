import Foundation
import GeoKit

/// Errors of snapping a coordinate onto the road graph.
public enum SnapError: Error, Equatable, CustomStringConvertible {
    /// The nearest road is farther than the limit (or the graph has no edges: distance infinite).
    case tooFarFromRoad(distanceMetres: Double, limitMetres: Double)

    public var description: String {
        switch self {
        case let .tooFarFromRoad(distance, limit):
            "nearest road is \(Int(distance.rounded())) m away, beyond the \(Int(limit.rounded())) m snapping limit"
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
    private let x: [Double], y: [Double]
    private let xScale: Double, yScale: Double
    private let grid: SegmentGrid

    /// Indexes every road segment of `graph`.
    public init(graph: RoadGraph) {
        let metresPerDegree = Coordinate.earthRadiusMetres * .pi / 180
        let meanLatitude = graph.coordinates.isEmpty ? 0
            : graph.coordinates.reduce(0) { $0 + $1.latitude } / Double(graph.nodeCount)
        xScale = metresPerDegree * cos(meanLatitude * .pi / 180)
        yScale = metresPerDegree
        x = graph.coordinates.map { $0.longitude * metresPerDegree * cos(meanLatitude * .pi / 180) }
        y = graph.coordinates.map { $0.latitude * metresPerDegree }
        edgeTail = graph.edgeTail
        edgeHead = graph.edgeHead
        grid = SegmentGrid(x: x, y: y, firstEdge: graph.firstEdge, edgeHead: graph.edgeHead, edgeTail: edgeTail)
    }

    /// The nearest point on any edge to `coordinate`.
    /// - Throws: ``SnapError/tooFarFromRoad(distanceMetres:limitMetres:)`` when
    ///   that point is more than `maxDistanceMetres` away, naming its distance.
    public func snap(_ coordinate: Coordinate, maxDistanceMetres: Double) throws -> Snap {
        guard let found = nearest(to: coordinate, within: maxDistanceMetres) else {
            throw tooFar(coordinate, limitMetres: maxDistanceMetres)
        }
        return makeSnap(edge: found.edge, fraction: found.fraction, distance: found.distance)
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
    /// - Throws: ``SnapError/tooFarFromRoad(distanceMetres:limitMetres:)`` when
    ///   the nearest road is more than `maxDistanceMetres` away.
    public func candidates(_ coordinate: Coordinate, maxDistanceMetres: Double, radiusMetres: Double,
                           limit: Int = 8) throws -> [Snap] {
        guard let found = candidatesIfNear(coordinate, maxDistanceMetres: maxDistanceMetres, radiusMetres: radiusMetres,
                                           limit: limit)
        else { throw tooFar(coordinate, limitMetres: maxDistanceMetres) }
        return found
    }

    /// As ``candidates(_:maxDistanceMetres:radiusMetres:limit:)``, but nil
    /// when the nearest road is beyond `maxDistanceMetres`, without measuring
    /// how far it is (which scans every edge): for snapping a moving fleet,
    /// whose taxis leave the map now and then.
    public func candidatesIfNear(_ coordinate: Coordinate, maxDistanceMetres: Double, radiusMetres: Double,
                                 limit: Int = 8) -> [Snap]? {
        guard let best = nearest(to: coordinate, within: maxDistanceMetres) else { return nil }
        let nearest = makeSnap(edge: best.edge, fraction: best.fraction, distance: best.distance)
        guard radiusMetres > 0, limit > 1 else { return [nearest] }
        var nearby = grid.within(coordinate.longitude * xScale, coordinate.latitude * yScale, radius: radiusMetres)
        nearby.sort { ($0.distance, $0.edge) < ($1.distance, $1.edge) }
        var found = [nearest]
        found.reserveCapacity(min(limit, nearby.count + 1))
        for candidate in nearby where found.count < limit {
            let place = place(edge: candidate.edge, fraction: candidate.fraction)
            if found.contains(where: { self.place(edge: $0.edge, fraction: $0.fraction) == place }) { continue }
            found.append(makeSnap(edge: candidate.edge, fraction: candidate.fraction, distance: candidate.distance))
        }
        return found
    }

    /// The nearest edge to `coordinate` when it is at most `limit` metres away.
    private func nearest(to coordinate: Coordinate, within limit: Double) -> SegmentGrid.Hit? {
        grid.nearest(coordinate.longitude * xScale, coordinate.latitude * yScale, within: limit)
    }

    /// The error for `coordinate` lying beyond `limitMetres` of every road,
    /// naming how far the nearest one is: found by scanning every edge, which
    /// only a failure pays for.
    private func tooFar(_ coordinate: Coordinate, limitMetres: Double) -> SnapError {
        let px = coordinate.longitude * xScale, py = coordinate.latitude * yScale
        let nearest = (0..<edgeHead.count).map { edge in
            let a = Int(edgeTail[edge]), b = Int(edgeHead[edge])
            let segment = SegmentGrid.Segment(x0: x[a], y0: y[a], x1: x[b], y1: y[b], edge: UInt32(edge))
            return SegmentGrid.project(px, py, onto: segment).distance
        }.min()
        return .tooFarFromRoad(distanceMetres: nearest ?? .infinity, limitMetres: limitMetres)
    }

    /// Where a snap puts a route's end, for telling candidates apart: the
    /// node itself when the projection falls on an end of the edge (every
    /// road meeting there gives the same start), else the road (the edge's
    /// two end nodes in either order, so an edge and its twin are one).
    private func place(edge: Int, fraction: Double) -> SnapPlace {
        if fraction == 0 { return .node(edgeTail[edge]) }
        if fraction == 1 { return .node(edgeHead[edge]) }
        let a = edgeTail[edge], b = edgeHead[edge]
        return .road(min(a, b), max(a, b))
    }

    /// See ``place(edge:fraction:)``.
    private enum SnapPlace: Equatable {
        case node(UInt32)
        case road(UInt32, UInt32)
    }

    /// The snap at `fraction` along `edge`, `distance` metres from the coordinate.
    private func makeSnap(edge: Int, fraction: Double, distance: Double) -> Snap {
        let a = Int(edgeTail[edge]), b = Int(edgeHead[edge])
        let pointX = x[a] + (x[b] - x[a]) * fraction, pointY = y[a] + (y[b] - y[a]) * fraction
        return Snap(edge: edge, fraction: fraction, distanceMetres: distance,
                    point: Coordinate(longitude: pointX / xScale, latitude: pointY / yScale))
    }
}
