extension GraphBuilder {
    /// Sets the ``SignalApproach`` of every edge ending at one of
    /// `signalNodes`: ``SignalApproach/minor`` when an edge of another way at
    /// that node (arriving or leaving) has a better class rank, else
    /// ``SignalApproach/major``.
    static func markSignalApproaches(in edges: inout EdgeList, signalNodes: Set<UInt32>) {
        guard !signalNodes.isEmpty else { return }
        var roadsAt: [UInt32: [(way: Int64, rank: Int)]] = [:]
        for edge in 0..<edges.edgeCount {
            let rank = SignalApproach.rank(of: edges.roadClass[edge])
            for node in [edges.tail[edge], edges.head[edge]] where signalNodes.contains(node) {
                roadsAt[node, default: []].append((edges.wayID[edge], rank))
            }
        }
        for edge in 0..<edges.edgeCount {
            guard let roads = roadsAt[edges.head[edge]] else { continue }
            let way = edges.wayID[edge], rank = SignalApproach.rank(of: edges.roadClass[edge])
            edges.signalApproach[edge] = roads.contains { $0.way != way && $0.rank < rank } ? .minor : .major
        }
    }
}
