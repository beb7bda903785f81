import Foundation
import GeoKit

/// One edge of a route and how much of it is driven: 1 for the edges in
/// between, the part after (or before) the snapped point for the first and
/// last edge.
public struct DrivenEdge: Sendable, Equatable {
    /// The edge.
    public var edge: Int
    /// The fraction of its length driven, in (0, 1].
    public var share: Double
}

extension Router {
    /// The edges the fastest route from `source` to `target`, leaving at
    /// `depart`, drives, in order, with the share of each.
    ///
    /// Calibration uses it to split a trip's time between the roads, lane
    /// classes and zones it crossed; ``route(from:to:depart:includeGeometry:)``
    /// gives the same route's duration.
    /// - Throws: ``SnapError`` when either end is too far from a road,
    ///   ``RouteError/noRoute`` when no path exists.
    public func drivenEdges(from source: Coordinate, to target: Coordinate, depart: Date) throws -> [DrivenEdge] {
        let metric = metric(departing: depart)
        let from = try snapper.snap(source, maxDistanceMetres: maxSnapDistanceMetres)
        let to = try snapper.snap(target, maxDistanceMetres: maxSnapDistanceMetres)
        let found = withQuery { query in
            query.shortestPath(from: sourceSeeds(from, metric), to: targetSeeds(to, metric), metric: metric, unpack: true)
        }
        if let direct = directEdge(from: from, to: to, metric: metric),
           direct.durationMs <= found?.durationMs ?? unreachableMs {
            return direct.share > 0 ? [DrivenEdge(edge: direct.edge, share: direct.share)] : []
        }
        guard let found else { throw RouteError.noRoute }
        var driven: [DrivenEdge] = []
        let (firstEdge, firstShare) = found.sourceNode == graph.edgeHead[from.edge]
            ? (from.edge, 1 - from.fraction) : (twin(of: from.edge, metric), from.fraction)
        if let firstEdge, firstShare > 0 { driven.append(DrivenEdge(edge: firstEdge, share: firstShare)) }
        driven += found.edges.map { DrivenEdge(edge: $0, share: 1) }
        let (lastEdge, lastShare) = found.targetNode == snapper.edgeTail[to.edge]
            ? (to.edge, to.fraction) : (twin(of: to.edge, metric), 1 - to.fraction)
        if let lastEdge, lastShare > 0 { driven.append(DrivenEdge(edge: lastEdge, share: lastShare)) }
        return driven
    }
}
