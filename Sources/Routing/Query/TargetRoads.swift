/// The roads a table's single endpoint lies on (its snap candidates'
/// roads), as every edge joining the same two nodes either way: driving
/// straight along one road between a source and the target needs a source
/// candidate on the same edge or on its reverse twin. So a table from
/// thousands of taxis asks ``RoadRouter/directDrive(from:to:metric:)`` only of
/// the few with a candidate on one of these edges, and gives the others'
/// answers from the graph search alone, as that check would. The edges are
/// listed once per table, so checking a taxi reads none of its edges' nodes,
/// and marked in a 64-bit mask by their numbers modulo 64, so that most
/// candidates, on none of them, are told apart without scanning the list.
struct TargetRoads {
    private let edges: [Int]
    /// Bit `edge % 64` set for each of `edges`.
    private let mask: UInt64

    /// The roads of `candidates`, on `graph`, whose edges leave `tails`.
    init(_ candidates: SnapCandidates, tails: [UInt32], graph: RoadGraph) {
        var edges: [Int] = []
        for candidate in candidates {
            let tail = Int(tails[candidate.edge]), head = Int(graph.edgeHead[candidate.edge])
            for (from, to) in [(tail, head), (head, tail)] {
                for edge in graph.edges(from: from) where graph.edgeHead[edge] == UInt32(to) && !edges.contains(edge) {
                    edges.append(edge)
                }
            }
        }
        self.edges = edges
        mask = edges.reduce(0) { $0 | Self.bit(of: $1) }
    }

    /// Whether any of `candidates` lies on one of the roads.
    func containsRoad<Candidates: Sequence>(ofAnyOf candidates: Candidates) -> Bool where Candidates.Element: RoadPosition {
        candidates.contains { mask & Self.bit(of: $0.edge) != 0 && edges.contains($0.edge) }
    }

    /// The mask's bit for `edge`.
    private static func bit(of edge: Int) -> UInt64 {
        1 << UInt64(edge & 63)
    }
}
