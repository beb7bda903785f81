import GeoKit

/// The build graph: nodes and an unordered list of directed edges, with the
/// OSM way of each edge (turn restrictions are stated in ways). It becomes a
/// ``RoadGraph`` once restrictions are applied and stray components removed.
struct EdgeList {
    var coordinates: [Coordinate] = []
    var tail: [UInt32] = []
    var head: [UInt32] = []
    var durationMs: [UInt32] = []
    var lengthMetres: [Float] = []
    var roadClass: [RoadClass] = []
    var laneClass: [LaneClass] = []
    var signalApproach: [SignalApproach] = []
    var wayID: [Int64] = []

    var nodeCount: Int { coordinates.count }
    var edgeCount: Int { head.count }

    /// Adds a node at `coordinate` and returns its number.
    mutating func addNode(at coordinate: Coordinate) -> UInt32 {
        coordinates.append(coordinate)
        return UInt32(coordinates.count - 1)
    }

    /// Appends an edge.
    mutating func addEdge(from tail: UInt32, to head: UInt32, durationMs: UInt32, lengthMetres: Float,
                          roadClass: RoadClass, laneClass: LaneClass, wayID: Int64, signalApproach: SignalApproach = .none) {
        self.tail.append(tail)
        self.head.append(head)
        self.durationMs.append(durationMs)
        self.lengthMetres.append(lengthMetres)
        self.roadClass.append(roadClass)
        self.laneClass.append(laneClass)
        self.signalApproach.append(signalApproach)
        self.wayID.append(wayID)
    }

    /// Appends a copy of edge `edge` leaving `tail` instead of its own tail.
    mutating func addCopy(of edge: Int, from tail: UInt32) {
        addEdge(from: tail, to: head[edge], durationMs: durationMs[edge], lengthMetres: lengthMetres[edge],
                roadClass: roadClass[edge], laneClass: laneClass[edge], wayID: wayID[edge],
                signalApproach: signalApproach[edge])
    }

    /// Edge numbers grouped by the node `key` gives (tail or head), as
    /// `(first, edges)` with node `n`'s edges at `edges[first[n]..<first[n + 1]]`,
    /// in edge order (counting sort).
    func grouped(by key: [UInt32]) -> (first: [UInt32], edges: [UInt32]) {
        var first = [UInt32](repeating: 0, count: nodeCount + 1)
        for node in key { first[Int(node) + 1] += 1 }
        for node in 0..<nodeCount { first[node + 1] += first[node] }
        var next = first
        var edges = [UInt32](repeating: 0, count: key.count)
        for (edge, node) in key.enumerated() {
            edges[Int(next[Int(node)])] = UInt32(edge)
            next[Int(node)] += 1
        }
        return (first, edges)
    }
}
