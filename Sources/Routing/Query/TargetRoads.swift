/// The roads a table's single endpoint lies on (its snap candidates'
/// edges), each as its two end nodes, lower first: driving straight along
/// one road between a source and the target needs a source candidate on
/// the same edge or on its reverse twin, which join the same two nodes. So
/// a table from thousands of taxis asks ``Router/directDrive(from:to:metric:)``
/// only of the few with a candidate on one of these roads, and gives the
/// others' answers from the graph search alone, as that check would.
struct TargetRoads {
    private let roads: [UInt64]
    private let tails: [UInt32]
    private let heads: [UInt32]

    /// The roads of `candidates`, on a graph whose edges run from `tails` to `heads`.
    init(_ candidates: SnapCandidates, tails: [UInt32], heads: [UInt32]) {
        self.tails = tails
        self.heads = heads
        roads = candidates.map { Self.road(of: $0.edge, tails: tails, heads: heads) }
    }

    /// Whether any of `candidates` lies on one of the roads.
    func containsRoad(ofAnyOf candidates: SnapCandidates) -> Bool {
        candidates.contains { roads.contains(Self.road(of: $0.edge, tails: tails, heads: heads)) }
    }

    /// The end nodes of `edge`, lower first, in one number.
    private static func road(of edge: Int, tails: [UInt32], heads: [UInt32]) -> UInt64 {
        let (tail, head) = (tails[edge], heads[edge])
        return UInt64(min(tail, head)) << 32 | UInt64(max(tail, head))
    }
}
