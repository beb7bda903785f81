import Foundation
import GeoKit

/// Synthetic road graphs shaped like a dense city, for tests and benchmarks
/// until the OSM importer's graphs are at hand, and for graphs drawn in tests.
///
/// ``grid(columns:rows:seed:)`` lays a Manhattan-like grid: blocks of about
/// 80 × 80 m, every fourth column a two-way avenue (primary), every fifth row
/// a two-way cross street (secondary), the other streets one-way in
/// alternating directions (residential), about 4 % of residential segments
/// missing, and travel times jittered ±30 % around the class speed, so ties
/// between routes are rare. With `shapePoints`, each road between two
/// intersections is drawn through that many extra nodes, as OSM ways are,
/// which makes the graph look like an imported one (most nodes of degree 2).
/// The same seed gives the same graph.
public enum SyntheticCity {
    /// One directed edge to put into a graph.
    public struct Edge: Sendable {
        /// The node the edge leaves.
        public var tail: UInt32
        /// The node the edge enters.
        public var head: UInt32
        /// Free-flow travel time in milliseconds.
        public var durationMs: UInt32
        /// Length in metres.
        public var lengthMetres: Float
        /// Road class, for speed profiles.
        public var roadClass: RoadClass

        /// Creates an edge from `tail` to `head`.
        public init(tail: UInt32, head: UInt32, durationMs: UInt32, lengthMetres: Float, roadClass: RoadClass) {
            self.tail = tail; self.head = head; self.durationMs = durationMs
            self.lengthMetres = lengthMetres; self.roadClass = roadClass
        }
    }

    /// A Manhattan-like grid of `columns × rows` intersections near 40.75° N, 73.99° W,
    /// node `row * columns + column` at each; shape-point nodes come after them.
    public static func grid(columns: Int, rows: Int, shapePoints: Int = 0, seed: UInt64 = 1) -> RoadGraph {
        var random = SplitMix64(state: seed)
        let metresPerDegree = Coordinate.earthRadiusMetres * .pi / 180
        let origin = Coordinate(longitude: -73.99, latitude: 40.75)
        let xScale = metresPerDegree * cos(origin.latitude * .pi / 180)
        var coordinates: [Coordinate] = []
        coordinates.reserveCapacity(columns * rows)
        for row in 0..<rows {
            for column in 0..<columns {
                let east = Double(column) * 80 + .random(in: -8...8, using: &random)
                let north = Double(row) * 80 + .random(in: -8...8, using: &random)
                coordinates.append(Coordinate(longitude: origin.longitude + east / xScale,
                                              latitude: origin.latitude + north / metresPerDegree))
            }
        }
        var edges: [Edge] = []
        func road(_ a: Int, _ b: Int, _ roadClass: RoadClass, twoWay: Bool, forward: Bool) {
            let metres = coordinates[a].haversineDistance(to: coordinates[b])
            let kmh: Double = switch roadClass {
            case .primary: 40
            case .secondary: 30
            default: 22
            }
            // The way's nodes: a, the shape points, b.
            var way = [a]
            for step in 0..<shapePoints {
                let t = Double(step + 1) / Double(shapePoints + 1)
                way.append(coordinates.count)
                coordinates.append(Coordinate(
                    longitude: coordinates[a].longitude + (coordinates[b].longitude - coordinates[a].longitude) * t,
                    latitude: coordinates[a].latitude + (coordinates[b].latitude - coordinates[a].latitude) * t))
            }
            way.append(b)
            let seconds = metres / (kmh / 3.6) / Double(shapePoints + 1)
            let pieceMetres = Float(metres / Double(shapePoints + 1))
            for (tail, head) in zip(way, way.dropFirst()) {
                for (from, to) in twoWay ? [(tail, head), (head, tail)] : [forward ? (tail, head) : (head, tail)] {
                    let jittered = seconds * .random(in: 0.7...1.3, using: &random)
                    edges.append(Edge(tail: UInt32(from), head: UInt32(to), durationMs: UInt32(jittered * 1000),
                                      lengthMetres: pieceMetres, roadClass: roadClass))
                }
            }
        }
        for row in 0..<rows {
            for column in 0..<columns {
                let node = row * columns + column
                if column + 1 < columns {
                    let crossStreet = row % 5 == 0
                    if crossStreet || random.next() % 100 >= 4 {
                        road(node, node + 1, crossStreet ? .secondary : .residential, twoWay: crossStreet,
                             forward: row % 2 == 0)
                    }
                }
                if row + 1 < rows {
                    let avenue = column % 4 == 0
                    if avenue || random.next() % 100 >= 4 {
                        road(node, node + columns, avenue ? .primary : .residential, twoWay: avenue,
                             forward: column % 2 == 0)
                    }
                }
            }
        }
        return graph(coordinates: coordinates, edges: edges)
    }

    /// The CSR graph of an edge list (edges keep their relative order per tail).
    public static func graph(coordinates: [Coordinate], edges: [Edge]) -> RoadGraph {
        var firstEdge = [UInt32](repeating: 0, count: coordinates.count + 1)
        for edge in edges { firstEdge[Int(edge.tail) + 1] += 1 }
        for node in 0..<coordinates.count { firstEdge[node + 1] += firstEdge[node] }
        var fill = firstEdge
        var order = [Int](repeating: 0, count: edges.count)
        for (index, edge) in edges.enumerated() {
            order[Int(fill[Int(edge.tail)])] = index
            fill[Int(edge.tail)] += 1
        }
        return RoadGraph(coordinates: coordinates, firstEdge: firstEdge,
                         edgeHead: order.map { edges[$0].head },
                         edgeDurationMs: order.map { edges[$0].durationMs },
                         edgeLengthMetres: order.map { edges[$0].lengthMetres },
                         edgeRoadClass: order.map { edges[$0].roadClass })
    }
}
