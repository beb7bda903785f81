import GeoKit

extension GraphBuilder {
    /// Keeps the largest strongly connected component of `edges` and returns
    /// it as a CSR ``RoadGraph``; kept nodes keep their relative order.
    static func keepLargestComponent(of edges: EdgeList, statistics: GraphBuildStatistics) -> GraphBuildResult {
        var statistics = statistics
        let byTail = edges.grouped(by: edges.tail)
        let components = StronglyConnectedComponents(
            firstEdge: byTail.first, edgeHead: byTail.edges.map { edges.head[Int($0)] })

        var newNumber = [Int32](repeating: -1, count: edges.nodeCount)
        var coordinates = [Coordinate]()
        if let largest = components.largest {
            coordinates.reserveCapacity(components.sizes[Int(largest)])
            for node in 0..<edges.nodeCount where components.component[node] == largest {
                newNumber[node] = Int32(coordinates.count)
                coordinates.append(edges.coordinates[node])
            }
        }
        statistics.droppedNodes = edges.nodeCount - coordinates.count

        var firstEdge = [UInt32](repeating: 0, count: coordinates.count + 1)
        var edgeHead: [UInt32] = [], durations: [UInt32] = [], lengths: [Float] = []
        var classes: [RoadClass] = [], lanes: [LaneClass] = [], signals: [SignalApproach] = [], wayIDs: [Int64] = []
        for edge in byTail.edges.map(Int.init) {
            let tail = newNumber[Int(edges.tail[edge])], head = newNumber[Int(edges.head[edge])]
            guard tail >= 0, head >= 0 else { continue }
            firstEdge[Int(tail) + 1] += 1
            edgeHead.append(UInt32(head))
            durations.append(edges.durationMs[edge])
            lengths.append(edges.lengthMetres[edge])
            classes.append(edges.roadClass[edge])
            lanes.append(edges.laneClass[edge])
            signals.append(edges.signalApproach[edge])
            wayIDs.append(edges.wayID[edge])
        }
        for node in 0..<coordinates.count { firstEdge[node + 1] += firstEdge[node] }
        statistics.droppedEdges = edges.edgeCount - edgeHead.count

        let graph = RoadGraph(coordinates: coordinates, firstEdge: firstEdge, edgeHead: edgeHead,
                              edgeDurationMs: durations, edgeLengthMetres: lengths, edgeRoadClass: classes,
                              edgeLaneClass: lanes, edgeSignalApproach: signals)
        return GraphBuildResult(graph: graph, edgeWayIDs: wayIDs, statistics: statistics)
    }
}
