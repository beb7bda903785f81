extension GraphBuilder {
    /// Applies turn restrictions with a via node by splitting the via node.
    ///
    /// For the restrictions that enter via node V from way F, a copy V' of V
    /// (same position) is added. The edges of F that arrive at V arrive at V'
    /// instead, and V' leaves only by the allowed continuations: copies of V's
    /// out-edges except those onto the `to` way of a `no_*` restriction, and
    /// only those onto the `to` way of an `only_*` one. Several restrictions
    /// from the same F at V share one copy, and their conditions combine.
    /// Traffic arriving at V from any other way is untouched.
    ///
    /// Copies are made from V's original out-edges first; then every edge,
    /// copies included, that arrives at some V along F is redirected to its
    /// V'. So a restricted turn at V followed by another at the next node
    /// composes correctly.
    ///
    /// Not supported (counted in ``GraphBuildStatistics/restrictionsSkipped``):
    /// via-way restrictions, and restrictions whose `from` edges or `to`
    /// edges do not touch the via node in the graph. A `from` way passing
    /// through V (rather than ending there, as OSM asks) is restricted in both
    /// approach directions. Conditional restrictions (`restriction:conditional`)
    /// are ignored.
    static func applyRestrictions(_ restrictions: [(restriction: TurnRestriction, via: UInt32)],
                                  to edges: inout EdgeList, statistics: inout GraphBuildStatistics) {
        guard !restrictions.isEmpty else { return }
        let outgoing = edges.grouped(by: edges.tail)
        let incoming = edges.grouped(by: edges.head)
        func edgesTouching(_ node: UInt32, in grouping: (first: [UInt32], edges: [UInt32])) -> ArraySlice<UInt32> {
            grouping.edges[Int(grouping.first[Int(node)])..<Int(grouping.first[Int(node) + 1])]
        }

        struct Entry: Hashable {
            var via: UInt32
            var fromWay: Int64
        }
        var groups: [Entry: [TurnRestriction]] = [:]
        var order: [Entry] = []
        for (restriction, via) in restrictions {
            let arrives = edgesTouching(via, in: incoming).contains { edges.wayID[Int($0)] == restriction.fromWay }
            let leaves = edgesTouching(via, in: outgoing).contains { edges.wayID[Int($0)] == restriction.toWay }
            guard arrives, leaves else {
                statistics.restrictionsSkipped[.notOnGraph, default: 0] += 1
                continue
            }
            let entry = Entry(via: via, fromWay: restriction.fromWay)
            if groups[entry] == nil { order.append(entry) }
            groups[entry, default: []].append(restriction)
            statistics.restrictionsApplied += 1
        }

        var copyOf: [Entry: UInt32] = [:]
        var isSplit = [Bool](repeating: false, count: edges.nodeCount)
        for entry in order {
            let group = groups[entry]!
            let copy = edges.addNode(at: edges.coordinates[Int(entry.via)])
            copyOf[entry] = copy
            isSplit[Int(entry.via)] = true
            for edge in edgesTouching(entry.via, in: outgoing) {
                let way = edges.wayID[Int(edge)]
                let allowed = group.allSatisfy { restriction in
                    switch restriction.kind {
                    case .prohibitive: way != restriction.toWay
                    case .mandatory: way == restriction.toWay
                    }
                }
                if allowed { edges.addCopy(of: Int(edge), from: copy) }
            }
        }
        statistics.splitNodes = order.count

        for edge in 0..<edges.edgeCount where isSplit[Int(edges.head[edge])] {
            if let copy = copyOf[Entry(via: edges.head[edge], fromWay: edges.wayID[edge])] {
                edges.head[edge] = copy
            }
        }
    }
}
