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

extension RoadRouter {
    /// The edges the fastest route from `source` to `target`, leaving at
    /// `depart`, drives, in order, with the share of each (from and to the
    /// snap candidates that route uses).
    ///
    /// Calibration uses it to split a trip's time between the roads, lane
    /// classes and zones it crossed; ``route(from:to:depart:includeGeometry:)``
    /// gives the same route's duration.
    /// - Throws: ``SnapError`` when either end is too far from a road,
    ///   ``RouteError/noRoute`` when no path exists.
    public func drivenEdges(from source: Coordinate, to target: Coordinate, depart: Date) throws -> [DrivenEdge] {
        switch try fastestPath(from: source, to: target, depart: depart, unpack: true).path {
        case .direct(let direct):
            return direct.share > 0 ? [DrivenEdge(edge: direct.edge, share: direct.share)] : []
        case .searched(let found, let first, let last):
            var driven: [DrivenEdge] = []
            if first.share > 0 { driven.append(DrivenEdge(edge: first.edge, share: first.share)) }
            driven += found.edges.map { DrivenEdge(edge: $0, share: 1) }
            if last.share > 0 { driven.append(DrivenEdge(edge: last.edge, share: last.share)) }
            return driven
        }
    }
}
