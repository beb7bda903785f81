import Foundation
import GeoKit

/// For each edge, the edge that carries the same road on ahead: same road
/// class, the heading within ``maxTurnDegrees``, not the way back; and the
/// road each edge belongs to, a chain of such edges (an avenue in one
/// direction). A slowdown measured on a few blocks of an avenue is likely
/// on its other blocks too: the live layer pools what it measured per road
/// first (``LearnedEdgeSpeeds``), then per edge.
public struct RoadChains: Sendable {
    /// The sharpest bend still counted as the same road, degrees.
    public static let maxTurnDegrees = 30.0
    /// Per edge, the edge ahead on the same road, -1 when none.
    public let next: [Int32]
    /// Per edge, the road (chain of continuations) it belongs to.
    public let road: [Int32]
    /// How many roads.
    public let roadCount: Int

    /// The continuations of `graph`'s edges, whose tails are `edgeTail`.
    public init(graph: RoadGraph, edgeTail: [UInt32]) {
        func heading(_ edge: Int) -> Double {
            let from = graph.coordinates[Int(edgeTail[edge])], to = graph.coordinates[Int(graph.edgeHead[edge])]
            let dx = (to.longitude - from.longitude) * cos(from.latitude * .pi / 180), dy = to.latitude - from.latitude
            return atan2(dx, dy) * 180 / .pi
        }
        let headings = (0..<graph.edgeCount).map(heading)
        var next = [Int32](repeating: -1, count: graph.edgeCount)
        for edge in 0..<graph.edgeCount {
            var best: (edge: Int, turn: Double)?
            for candidate in graph.edges(from: Int(graph.edgeHead[edge]))
            where graph.edgeRoadClass[candidate] == graph.edgeRoadClass[edge] && graph.edgeHead[candidate] != edgeTail[edge] {
                var turn = abs(headings[candidate] - headings[edge])
                if turn > 180 { turn = 360 - turn }
                if turn <= Self.maxTurnDegrees, best.map({ turn < $0.turn }) ?? true { best = (candidate, turn) }
            }
            if let best { next[edge] = Int32(best.edge) }
        }
        self.next = next
        var parent = Array(0..<graph.edgeCount)
        func root(_ edge: Int) -> Int {
            var current = edge
            while parent[current] != current {
                parent[current] = parent[parent[current]]
                current = parent[current]
            }
            return current
        }
        for edge in 0..<graph.edgeCount where next[edge] >= 0 {
            let (a, b) = (root(edge), root(Int(next[edge])))
            if a != b { parent[max(a, b)] = min(a, b) }
        }
        var numbering: [Int: Int32] = [:]
        road = (0..<graph.edgeCount).map { edge in
            let key = root(edge)
            if let known = numbering[key] { return known }
            let number = Int32(numbering.count)
            numbering[key] = number
            return number
        }
        roadCount = numbering.count
    }
}
