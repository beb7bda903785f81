/// The part of a CCH that a one-to-many or many-to-one table needs for one
/// set of "many" endpoints: the union of their elimination-tree ancestors,
/// ordered top-down, with the arcs between them renumbered into that order.
///
/// Computing it walks each endpoint's chain once; it is independent of the
/// metric, so one selection serves every hour of the week for as long as
/// the endpoints stay put (RPHAST's target selection). A table then costs one
/// upward search from the single endpoint plus one linear sweep over the
/// selection, instead of one search per endpoint.
public struct CCHSelection: Sendable {
    /// Selected ranks, highest first.
    let ranks: [UInt32]
    /// Start of each selected node's arcs in ``arcLocalHead``/``arcId``; `ranks.count + 1` entries.
    let firstArc: [UInt32]
    /// Position in ``ranks`` of each arc's higher end (always before the arc's own node).
    let arcLocalHead: [UInt32]
    /// The topology's id of each arc, to look up its weights.
    let arcId: [UInt32]
    /// Start of each endpoint's seeds; `endpointCount + 1` entries.
    let firstSeed: [UInt32]
    /// Position in ``ranks`` of each seed's node.
    let seedLocal: [UInt32]
    /// Each seed's offsets between its node and the endpoint.
    let seedOffsetMs: [UInt32]
    let seedOffsetMetres: [Float]

    /// Number of endpoints, the table's length.
    public var endpointCount: Int { firstSeed.count - 1 }
    /// Number of selected nodes, what one table sweep visits.
    public var nodeCount: Int { ranks.count }

    /// Selects the ancestors of every seed of every endpoint.
    /// - Parameter endpoints: per endpoint, the seeds it can be reached from or left by
    ///   (an endpoint without seeds gets no answer).
    public init(topology: CCHTopology, endpoints: [[SearchSeed]]) {
        var local = [Int32](repeating: -1, count: topology.nodeCount)
        var ranks: [UInt32] = []
        for seeds in endpoints {
            for seed in seeds {
                var node = topology.rank[Int(seed.node)]
                while node != UInt32.max && local[Int(node)] < 0 {
                    local[Int(node)] = 0
                    ranks.append(node)
                    node = topology.parent[Int(node)]
                }
            }
        }
        ranks.sort(by: >)
        for (position, rank) in ranks.enumerated() { local[Int(rank)] = Int32(position) }
        var firstArc: [UInt32] = [0]
        firstArc.reserveCapacity(ranks.count + 1)
        var arcLocalHead: [UInt32] = [], arcId: [UInt32] = []
        for rank in ranks {
            for arc in Int(topology.firstArc[Int(rank)])..<Int(topology.firstArc[Int(rank) + 1]) {
                arcLocalHead.append(UInt32(local[Int(topology.arcHead[arc])]))
                arcId.append(UInt32(arc))
            }
            firstArc.append(UInt32(arcId.count))
        }
        var firstSeed: [UInt32] = [0], seedLocal: [UInt32] = []
        var seedOffsetMs: [UInt32] = [], seedOffsetMetres: [Float] = []
        for seeds in endpoints {
            for seed in seeds {
                seedLocal.append(UInt32(local[Int(topology.rank[Int(seed.node)])]))
                seedOffsetMs.append(seed.offsetMs)
                seedOffsetMetres.append(seed.offsetMetres)
            }
            firstSeed.append(UInt32(seedLocal.count))
        }
        self.ranks = ranks
        self.firstArc = firstArc
        self.arcLocalHead = arcLocalHead
        self.arcId = arcId
        self.firstSeed = firstSeed
        self.seedLocal = seedLocal
        self.seedOffsetMs = seedOffsetMs
        self.seedOffsetMetres = seedOffsetMetres
    }
}
