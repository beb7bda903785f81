/// How the router turns snapped coordinates into search seeds: a route leaves
/// a point in the middle of an edge by driving the rest of that edge (or,
/// on a two-way road, the part behind it along the reverse twin), and
/// arrives likewise; when both points lie on one road it may drive straight
/// between them.
extension Router {
    /// Seeds for leaving a snapped point: ahead along its edge, and back along the reverse twin if any.
    func sourceSeeds(_ snap: Snapper.Snap, _ metric: CCHMetric) -> [SearchSeed] {
        var seeds: [SearchSeed] = []
        let edge = snap.edge
        if let seed = seed(node: graph.edgeHead[edge], edge: edge, share: 1 - snap.fraction, metric) { seeds.append(seed) }
        if let twin = twin(of: edge, metric), let seed = seed(node: snapper.edgeTail[edge], edge: twin, share: snap.fraction, metric) {
            seeds.append(seed)
        }
        return seeds
    }

    /// Seeds for arriving at a snapped point: from its edge's tail, or from its head along the reverse twin.
    func targetSeeds(_ snap: Snapper.Snap, _ metric: CCHMetric) -> [SearchSeed] {
        var seeds: [SearchSeed] = []
        let edge = snap.edge
        if let seed = seed(node: snapper.edgeTail[edge], edge: edge, share: snap.fraction, metric) { seeds.append(seed) }
        if let twin = twin(of: edge, metric), let seed = seed(node: graph.edgeHead[edge], edge: twin, share: 1 - snap.fraction, metric) {
            seeds.append(seed)
        }
        return seeds
    }

    func seed(node: UInt32, edge: Int, share: Double, _ metric: CCHMetric) -> SearchSeed? {
        let weight = metric.edgeWeights[edge]
        guard weight != unreachableMs else { return nil }
        return SearchSeed(node: node, offsetMs: UInt32((Double(weight) * share).rounded()),
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

    /// The cost of driving straight along one road when both points snapped onto it
    /// (same edge or its twin) and the target lies ahead in a drivable direction.
    func directCost(from source: Snapper.Snap, to target: Snapper.Snap, metric: CCHMetric) -> TableCell? {
        directEdge(from: source, to: target, metric: metric).map { direct in
            TableCell(durationMs: direct.durationMs, lengthMetres: graph.edgeLengthMetres[direct.edge] * Float(direct.share))
        }
    }

    /// The edge, share of it and time of driving straight along one road, as ``directCost(from:to:metric:)``.
    func directEdge(from source: Snapper.Snap, to target: Snapper.Snap,
                    metric: CCHMetric) -> (edge: Int, share: Double, durationMs: UInt32)? {
        let twin = twin(of: source.edge, metric)
        let targetPosition: Double
        if target.edge == source.edge {
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
        return (edge, share, UInt32((Double(metric.edgeWeights[edge]) * share).rounded()))
    }

    func estimate(_ cell: TableCell, direct: TableCell?) -> TravelEstimate? {
        let best = direct.map { $0.durationMs <= cell.durationMs ? $0 : cell } ?? cell
        guard best.durationMs != unreachableMs else { return nil }
        return TravelEstimate(durationSeconds: Double(best.durationMs) / 1000 + tripOverheadSeconds, distanceMetres: Double(best.lengthMetres))
    }
}
