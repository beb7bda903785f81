/// The part of a CCH that a one-to-many or many-to-one table needs for one
/// set of "many" endpoints: the union of their elimination-tree ancestors,
/// ordered top-down.
///
/// Computing it walks each endpoint's chain once and orders the result; it is
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
        var seeds: [SearchSeed] = [], firstSeed: [UInt32] = [0]
        firstSeed.reserveCapacity(endpoints.count + 1)
        for endpointSeeds in endpoints {
            seeds.append(contentsOf: endpointSeeds)
            firstSeed.append(UInt32(seeds.count))
        }
        self.init(topology: topology, seeds: seeds, firstSeed: firstSeed)
    }

    /// Selects the ancestors of `seeds`, every endpoint's one after the
    /// other: endpoint `i`'s are `seeds[firstSeed[i]..<firstSeed[i + 1]]`
    /// (the same endpoints as ``init(topology:endpoints:)`` without an array per endpoint).
    public init(topology: CCHTopology, seeds: [SearchSeed], firstSeed: [UInt32]) {
        precondition(firstSeed.first == 0 && firstSeed.last.map(Int.init) == seeds.count, "firstSeed must bound seeds")
        var selected = [Bool](repeating: false, count: topology.nodeCount)
        var ranks: [UInt32] = []
        var seedRank: [UInt32] = [], seedOffsetMs: [UInt32] = [], seedOffsetMetres: [Float] = []
        seedRank.reserveCapacity(seeds.count)
        seedOffsetMs.reserveCapacity(seeds.count)
        seedOffsetMetres.reserveCapacity(seeds.count)
        topology.rank.withUnsafeBufferPointer { rankOf in
        topology.parent.withUnsafeBufferPointer { parent in
        selected.withUnsafeMutableBufferPointer { selected in
            for seed in seeds {
                let rank = rankOf[Int(seed.node)]
                seedRank.append(rank)
                seedOffsetMs.append(seed.offsetMs)
                seedOffsetMetres.append(seed.offsetMetres)
                var node = rank
                while node != UInt32.max && !selected[Int(node)] {
                    selected[Int(node)] = true
                    ranks.append(node)
                    node = parent[Int(node)]
                }
            }
            Self.orderTopDown(&ranks, selected: UnsafeBufferPointer(selected))
        }}}
        self.ranks = ranks
        self.firstSeed = firstSeed
        self.seedRank = seedRank
        self.seedOffsetMs = seedOffsetMs
        self.seedOffsetMetres = seedOffsetMetres
    }

    /// Puts the selected `ranks` highest first: by reading the marks from the
    /// top rank down when the selection is a large part of the graph (as
    /// for thousands of taxis in one city: linear, where sorting costs a
    /// logarithmic factor more), by sorting when it is a small part.
    private static func orderTopDown(_ ranks: inout [UInt32], selected: UnsafeBufferPointer<Bool>) {
        guard ranks.count * 8 >= selected.count else {
            ranks.sort(by: >)
            return
        }
        ranks.withUnsafeMutableBufferPointer { ranks in
            var next = 0
            for rank in selected.indices.reversed() where selected[rank] {
                ranks[next] = UInt32(rank)
                next += 1
            }
        }
    }
}
