import Foundation
import GeoKit
@testable import Routing

/// Graphs drawn in code for the routing tests.
enum TestGraphs {
    /// A Manhattan-like grid (one-way streets, jittered durations).
    static func grid(_ columns: Int, _ rows: Int, seed: UInt64 = 7) -> RoadGraph {
        SyntheticCity.grid(columns: columns, rows: rows, seed: seed)
    }

    /// Random points joined to their nearest neighbours, some roads one-way,
    /// plus one node with no edges at all (the last one).
    static func randomGeometric(nodes: Int, seed: UInt64) -> RoadGraph {
        var random = SplitMix64(state: seed)
        var coordinates = (0..<nodes).map { _ in
            Coordinate(longitude: 2.30 + .random(in: 0...0.05, using: &random),
                       latitude: 48.85 + .random(in: 0...0.03, using: &random))
        }
        var edges: [SyntheticCity.Edge] = []
        for a in 0..<nodes {
            let nearest = (0..<nodes).filter { $0 != a }
                .sorted { coordinates[a].haversineDistance(to: coordinates[$0]) < coordinates[a].haversineDistance(to: coordinates[$1]) }
                .prefix(3)
            for b in nearest where a < b || random.next() % 3 == 0 {
                let metres = Float(coordinates[a].haversineDistance(to: coordinates[b]))
                let oneWay = random.next() % 4 == 0
                for (tail, head) in oneWay ? [(a, b)] : [(a, b), (b, a)] {
                    edges.append(.init(tail: UInt32(tail), head: UInt32(head),
                                       durationMs: UInt32(metres * 100) + UInt32(random.next() % 5_000),
                                       lengthMetres: metres, roadClass: .residential))
                }
            }
        }
        coordinates.append(Coordinate(longitude: 2.40, latitude: 48.80))
        return SyntheticCity.graph(coordinates: coordinates, edges: edges)
    }

    /// Random node pairs, reproducible.
    static func pairs(_ count: Int, nodes: Int, seed: UInt64) -> [(Int, Int)] {
        var random = SplitMix64(state: seed)
        return (0..<count).map { _ in (Int(random.next() % UInt64(nodes)), Int(random.next() % UInt64(nodes))) }
    }
}
