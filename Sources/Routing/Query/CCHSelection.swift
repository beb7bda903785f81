/// The part of a CCH that a one-to-many or many-to-one table needs for one
/// set of "many" endpoints: the union of their elimination-tree ancestors,
/// ordered top-down.
///
/// Computing it walks each endpoint's chain once and sorts the result; it is
/// independent of the metric, so one selection serves every hour of the week
/// for as long as the endpoints stay put (RPHAST's target selection). A
/// table then costs one upward search from the single endpoint plus one
/// linear sweep over the selection's arcs, instead of one search per
/// endpoint. Every arc of a selected node leads to an ancestor, which is
/// selected and, top-down, already final when the sweep reaches the node.
public struct CCHSelection: Sendable {
    /// Selected ranks, highest first.
    let ranks: [UInt32]
    /// Start of each endpoint's seeds; `endpointCount + 1` entries.
    let firstSeed: [UInt32]
    /// Rank of each seed's node.
    let seedRank: [UInt32]
    /// Each seed's travel time between its node and the endpoint, in ms.
    let seedOffsetMs: [UInt32]
    /// Each seed's length between its node and the endpoint, in metres.
    let seedOffsetMetres: [Float]

    /// Number of endpoints, the table's length.
    public var endpointCount: Int { firstSeed.count - 1 }
    /// Number of selected nodes, what one table sweep visits.
    public var nodeCount: Int { ranks.count }

    /// Selects the ancestors of every seed of every endpoint.
    /// - Parameter endpoints: per endpoint, the seeds it can be reached from or left by
    ///   (an endpoint without seeds gets no answer).
    public init(topology: CCHTopology, endpoints: [[SearchSeed]]) {
        var selected = [Bool](repeating: false, count: topology.nodeCount)
        var ranks: [UInt32] = []
        var firstSeed: [UInt32] = [0], seedRank: [UInt32] = []
        var seedOffsetMs: [UInt32] = [], seedOffsetMetres: [Float] = []
        firstSeed.reserveCapacity(endpoints.count + 1)
        for seeds in endpoints {
            for seed in seeds {
                let rank = topology.rank[Int(seed.node)]
                seedRank.append(rank)
                seedOffsetMs.append(seed.offsetMs)
                seedOffsetMetres.append(seed.offsetMetres)
                var node = rank
                while node != UInt32.max && !selected[Int(node)] {
                    selected[Int(node)] = true
                    ranks.append(node)
                    node = topology.parent[Int(node)]
                }
            }
            firstSeed.append(UInt32(seedRank.count))
        }
        ranks.sort(by: >)
        self.ranks = ranks
        self.firstSeed = firstSeed
        self.seedRank = seedRank
        self.seedOffsetMs = seedOffsetMs
        self.seedOffsetMetres = seedOffsetMetres
    }
}
