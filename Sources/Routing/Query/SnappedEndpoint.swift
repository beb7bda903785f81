/// Where a search seed of a snapped coordinate comes from: which snap
/// candidate, and the part of which edge is driven between the coordinate's
/// projection and the seed's node.
struct SeedOrigin: Sendable, Equatable {
    /// Index into ``SnappedEndpoint/candidates``.
    var candidate: Int
    /// The edge driven between the projected point and the seed's node.
    var edge: Int
    /// The fraction of that edge driven, in [0, 1].
    var share: Double
}

/// A coordinate placed on the road graph as one end of a search: every snap
/// candidate (``Snapper/candidates(_:maxDistanceMetres:radiusMetres:limit:)``)
/// and the union of their search seeds, each seed remembering its origin so
/// the router can tell which candidate the chosen path actually uses.
struct SnappedEndpoint: Sendable {
    /// The candidates, nearest first.
    let candidates: SnapCandidates
    /// The seeds of every candidate, in candidate order.
    let seeds: [SearchSeed]
    /// The origin of each seed, index for index.
    let origins: [SeedOrigin]

    /// Collects the seeds `seedsOf` gives for each of `candidates`.
    init(candidates: SnapCandidates, seedsOf: (Snapper.Snap) -> [(seed: SearchSeed, edge: Int, share: Double)]) {
        var seeds: [SearchSeed] = [], origins: [SeedOrigin] = []
        for (index, candidate) in candidates.enumerated() {
            for entry in seedsOf(candidate) {
                seeds.append(entry.seed)
                origins.append(SeedOrigin(candidate: index, edge: entry.edge, share: entry.share))
            }
        }
        self.candidates = candidates
        self.seeds = seeds
        self.origins = origins
    }

    /// The origin of the seed a path leaving from (or arriving at) `node`
    /// used: the cheapest seed at that node, the first among equals, which
    /// is the one ``CCHQuery`` keeps when seeds share a node.
    func origin(atNode node: UInt32) -> SeedOrigin? {
        var best: Int?
        for index in seeds.indices where seeds[index].node == node {
            if let current = best, seeds[current].offsetMs <= seeds[index].offsetMs { continue }
            best = index
        }
        return best.map { origins[$0] }
    }
}
