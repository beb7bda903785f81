import Foundation
import GeoKit

/// How the router turns coordinates into search seeds: each coordinate has
/// one or more snap candidates (the nearest road, plus the other roads within
/// ``RoadRouter/snapRadiusMetres``); a route leaves a candidate's point in the
/// middle of an edge by driving the rest of that edge (or, on a two-way road,
/// the part behind it along the reverse twin), and arrives likewise. The
/// seeds of every candidate go into one search, which picks the best. When a
/// source and a target candidate lie on one road the route may drive straight
/// between them.
extension RoadRouter {
    /// `coordinate` as the start of a search: its candidates, each leaving ahead and back.
    /// - Throws: ``SnapError`` when it is too far from a road.
    func sourceEndpoint(_ coordinate: Coordinate, _ metric: CCHMetric) throws -> SnappedEndpoint {
        SnappedEndpoint(candidates: try candidates(coordinate)) { sourceSeeds($0, metric) }
    }

    /// `coordinate` as the end of a search: its candidates, each reached from behind or ahead.
    /// - Throws: ``SnapError`` when it is too far from a road.
    func targetEndpoint(_ coordinate: Coordinate, _ metric: CCHMetric) throws -> SnappedEndpoint {
        SnappedEndpoint(candidates: try candidates(coordinate)) { targetSeeds($0, metric) }
    }

    func candidates(_ coordinate: Coordinate) throws -> SnapCandidates {
        try snapper.snapCandidates(coordinate, maxDistanceMetres: maxSnapDistanceMetres, radiusMetres: snapRadiusMetres,
                                   limit: Self.maxSnapCandidates)
    }

    /// Seeds for leaving a snapped point: ahead along its edge, and back along the reverse twin if any,
    /// each with the edge and share driven to reach its node.
    func sourceSeeds(_ snap: Snapper.Snap, _ metric: CCHMetric) -> [(seed: SearchSeed, edge: Int, share: Double)] {
        var seeds: [(seed: SearchSeed, edge: Int, share: Double)] = []
        forEachSourceSeed(snap, metric) { seeds.append(($0, $1, $2)) }
        return seeds
    }

    /// Hands each of the ``sourceSeeds(_:_:)`` of `snap` to `body`, in the
    /// same order, with its edge and share, without collecting them in an
    /// array: a table from thousands of places asks for tens of thousands.
    func forEachSourceSeed(_ snap: some RoadPosition, _ metric: CCHMetric,
                           _ body: (_ seed: SearchSeed, _ edge: Int, _ share: Double) -> Void) {
        let edge = snap.edge
        if let seed = seed(node: graph.edgeHead[edge], edge: edge, share: 1 - snap.fraction, metric) {
            body(seed, edge, 1 - snap.fraction)
        }
        if let twin = twin(of: edge, metric), let seed = seed(node: snapper.edgeTail[edge], edge: twin, share: snap.fraction, metric) {
            body(seed, twin, snap.fraction)
        }
    }

    /// Seeds for arriving at a snapped point: from its edge's tail, or from its head along the reverse twin,
    /// each with the edge and share driven from its node.
    func targetSeeds(_ snap: Snapper.Snap, _ metric: CCHMetric) -> [(seed: SearchSeed, edge: Int, share: Double)] {
        var seeds: [(seed: SearchSeed, edge: Int, share: Double)] = []
        let edge = snap.edge
        if let seed = seed(node: snapper.edgeTail[edge], edge: edge, share: snap.fraction, metric) {
            seeds.append((seed, edge, snap.fraction))
        }
        if let twin = twin(of: edge, metric), let seed = seed(node: graph.edgeHead[edge], edge: twin, share: 1 - snap.fraction, metric) {
            seeds.append((seed, twin, 1 - snap.fraction))
        }
        return seeds
    }

    func seed(node: UInt32, edge: Int, share: Double, _ metric: CCHMetric) -> SearchSeed? {
        let weight = metric.edgeWeights[edge]
        guard weight != unreachableMs else { return nil }
        return SearchSeed(node: node, offsetMs: partOfWeight(weight, share),
                          offsetMetres: graph.edgeLengthMetres[edge] * Float(share))
    }

    /// The fastest open edge running the other way between the same two nodes.
    func twin(of edge: Int, _ metric: CCHMetric) -> Int? {
        let tail = snapper.edgeTail[edge]
        var best: Int?
        for other in graph.edges(from: Int(graph.edgeHead[edge])) where graph.edgeHead[other] == tail
            && metric.edgeWeights[other] != unreachableMs {
            if best == nil || metric.edgeWeights[other] < metric.edgeWeights[best!] { best = other }
        }
        return best
    }

    /// The fastest way of driving straight along one road from one of the
    /// `source` candidates to one of the `target` candidates (first pair
    /// among equals), or `nil` when no pair shares a road the right way round.
    func directDrive<Source: Collection>(from source: Source, to target: SnapCandidates, metric: CCHMetric) -> DirectDrive?
        where Source.Element: RoadPosition {
        var best: DirectDrive?
        let tails = snapper.edgeTail, heads = graph.edgeHead
        for (sourceIndex, from) in source.enumerated() {
            for (targetIndex, to) in target.enumerated() {
                // Most pairs share no road: tell them apart before the full check.
                guard to.edge == from.edge || (tails[to.edge] == heads[from.edge] && heads[to.edge] == tails[from.edge]),
                      let drive = directEdge(from: from, to: to, metric: metric),
                      drive.durationMs < best?.durationMs ?? unreachableMs else { continue }
                best = DirectDrive(sourceCandidate: sourceIndex, targetCandidate: targetIndex, edge: drive.edge,
                                   share: drive.share, durationMs: drive.durationMs,
                                   lengthMetres: graph.edgeLengthMetres[drive.edge] * Float(drive.share))
            }
        }
        return best
    }

    /// The edge, share of it and time of driving straight along one road when both snaps lie on it
    /// (same edge or its twin) and the target lies ahead in a drivable direction.
    func directEdge(from source: some RoadPosition, to target: Snapper.Snap,
                    metric: CCHMetric) -> (edge: Int, share: Double, durationMs: UInt32)? {
        let tails = snapper.edgeTail, heads = graph.edgeHead
        let sameEdge = target.edge == source.edge
        guard sameEdge || (tails[target.edge] == heads[source.edge] && heads[target.edge] == tails[source.edge]) else {
            return nil
        }
        let twin = twin(of: source.edge, metric)
        let targetPosition: Double
        if sameEdge {
            targetPosition = target.fraction
        } else if target.edge == twin {
            targetPosition = 1 - target.fraction
        } else {
            return nil
        }
        let (edge, share) = targetPosition >= source.fraction
            ? (source.edge, targetPosition - source.fraction)
            : (twin, source.fraction - targetPosition)
        guard let edge, metric.edgeWeights[edge] != unreachableMs else { return nil }
        return (edge, share, partOfWeight(metric.edgeWeights[edge], share))
    }

    /// The fastest way between two endpoints: straight along one road, or
    /// a graph search between the candidates the search chose.
    enum FastestPath {
        case direct(DirectDrive)
        case searched(CCHQuery.Result, first: SeedOrigin, last: SeedOrigin)
    }

    /// The fastest path from `source` to `target` leaving at `depart` (the
    /// same-road drive when it is no slower than the search), with both ends'
    /// candidates; `unpack` fills the searched path's edges.
    /// - Throws: ``SnapError`` when either end is too far from a road,
    ///   ``RouteError/noRoute`` when no path exists.
    func fastestPath(from source: Coordinate, to target: Coordinate, depart: Date,
                     unpack: Bool) throws -> (from: SnappedEndpoint, to: SnappedEndpoint, path: FastestPath) {
        let metric = metric(departing: depart)
        let from = try sourceEndpoint(source, metric)
        let to = try targetEndpoint(target, metric)
        let found = withQuery { query in query.shortestPath(from: from.seeds, to: to.seeds, metric: metric, unpack: unpack) }
        if let direct = directDrive(from: from.candidates, to: to.candidates, metric: metric), direct.durationMs <= found?.durationMs ?? unreachableMs {
            return (from, to, .direct(direct))
        }
        guard let found, let first = from.origin(atNode: found.sourceNode), let last = to.origin(atNode: found.targetNode) else {
            throw RouteError.noRoute
        }
        return (from, to, .searched(found, first: first, last: last))
    }

    func estimate(_ cell: TableCell, direct: DirectDrive?) -> TravelEstimate? {
        let best = direct.map { $0.durationMs <= cell.durationMs ? $0.cell : cell } ?? cell
        guard best.durationMs != unreachableMs else { return nil }
        return TravelEstimate(durationSeconds: Double(best.durationMs) / 1000 + tripOverheadSeconds, distanceMetres: Double(best.lengthMetres))
    }
}
