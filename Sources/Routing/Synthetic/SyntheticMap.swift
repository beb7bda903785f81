import Foundation
import GeoKit

/// An OpenStreetMap-like city of any size, drawn from a seed, for measuring
/// the router at city scale (hundreds of thousands to millions of nodes)
/// where no real extract that large is at hand.
///
/// It is raw map data, an ``OSMExtract``, so that it goes through exactly
/// the pipeline of an imported map (``GraphBuilder``: profile, edges, largest
/// strongly connected component; then the CCH and the graph file) and the
/// build's time and memory mean what they would for a real city.
///
/// The city is an irregular grid of streets around ``defaultCentre``: column
/// and row spacings vary from 60 to 140 m, every intersection is moved up to
/// 12 m, and each block's road is drawn through 0–6 shape points that wander
/// up to 5 m off the straight line (so most nodes have degree 2, as in OSM).
/// Every 16th street is a primary road (two-way, 50 km/h, 4 lanes, traffic
/// signals where it meets another main road), every 8th a secondary, every
/// 4th a tertiary; the others are residential, 60 % of them one-way
/// (alternating directions), some with `maxspeed=30`. 6 % of residential and
/// 1 % of tertiary blocks are missing (dead ends, parks, rivers), so some
/// nodes fall outside the largest strongly connected component, as in real
/// extracts. Ways run for 2 to 12 blocks, broken where a block is missing.
/// The same seed and size give the same map.
public enum SyntheticMap {
    /// Where the city is drawn: central Berlin, a latitude where degrees of
    /// longitude are clearly shorter than degrees of latitude.
    public static let defaultCentre = Coordinate(longitude: 13.40, latitude: 52.52)

    /// Nodes per intersection the drawing gives on average (the intersection,
    /// plus 3 shape points on each of the two blocks leaving it east and
    /// north, less the missing ones), for sizing the grid to a node count.
    static let nodesPerIntersection = 6.8

    /// The class of a street (a whole row or column of the grid).
    private struct Street {
        var tags: [String: String]
        var mainRoad: Bool
        var missingPercent: UInt64
    }

    /// A city of about `nodes` nodes (the built graph has a few percent fewer:
    /// those outside the largest strongly connected component).
    /// - Parameters:
    ///   - nodes: the size to aim at, at least 100 (smaller is made 100).
    ///   - seed: the same seed gives the same map.
    ///   - centre: the middle of the city.
    public static func extract(nodes: Int, seed: UInt64 = 1, centre: Coordinate = defaultCentre) -> OSMExtract {
        var random = SplitMix64(state: seed)
        let side = max(Int((Double(max(nodes, 100)) / nodesPerIntersection).squareRoot().rounded()), 4)
        let metresPerDegree = Coordinate.earthRadiusMetres * .pi / 180
        let xScale = metresPerDegree * cos(centre.latitude * .pi / 180)

        func spacings() -> [Double] {
            var position = 0.0
            return (0..<side).map { _ in
                defer { position += .random(in: 60...140, using: &random) }
                return position
            }
        }
        let columnX = spacings(), rowY = spacings()
        let originX = centre.longitude * xScale - columnX[side - 1] / 2
        let originY = centre.latitude * metresPerDegree - rowY[side - 1] / 2

        var x: [Double] = [], y: [Double] = []
        x.reserveCapacity(nodes + nodes / 10)
        y.reserveCapacity(nodes + nodes / 10)
        for row in 0..<side {
            for column in 0..<side {
                x.append(originX + columnX[column] + .random(in: -12...12, using: &random))
                y.append(originY + rowY[row] + .random(in: -12...12, using: &random))
            }
        }

        let columns = (0..<side).map { street(number: $0, random: &random) }
        let rows = (0..<side).map { street(number: $0 + 2, random: &random) }

        var ways: [OSMWay] = []
        func drawStreet(_ street: Street, intersections: [Int]) {
            var wayNodes: [Int32] = []
            var blocksLeft = Int.random(in: 2...12, using: &random)
            func finishWay() {
                if wayNodes.count >= 2 {
                    ways.append(OSMWay(id: Int64(ways.count + 1), nodes: wayNodes, tags: street.tags))
                }
                wayNodes = []
                blocksLeft = Int.random(in: 2...12, using: &random)
            }
            for (a, b) in zip(intersections, intersections.dropFirst()) {
                if random.next() % 100 < street.missingPercent {
                    finishWay()
                    continue
                }
                if wayNodes.isEmpty { wayNodes.append(Int32(a)) }
                let shapePoints = Int.random(in: 0...6, using: &random)
                let dx = x[b] - x[a], dy = y[b] - y[a]
                let length = (dx * dx + dy * dy).squareRoot()
                for step in 0..<shapePoints {
                    let t = Double(step + 1) / Double(shapePoints + 1)
                    let offset = Double.random(in: -5...5, using: &random)
                    wayNodes.append(Int32(x.count))
                    x.append(x[a] + dx * t - dy / length * offset)
                    y.append(y[a] + dy * t + dx / length * offset)
                }
                wayNodes.append(Int32(b))
                blocksLeft -= 1
                if blocksLeft == 0 {
                    finishWay()
                    wayNodes = [Int32(b)]
                }
            }
            finishWay()
        }
        for (column, street) in columns.enumerated() {
            var intersections = (0..<side).map { $0 * side + column }
            if street.tags["oneway"] == "yes", column % 2 == 1 { intersections.reverse() }
            drawStreet(street, intersections: intersections)
        }
        for (row, street) in rows.enumerated() {
            var intersections = (0..<side).map { row * side + $0 }
            if street.tags["oneway"] == "yes", row % 2 == 1 { intersections.reverse() }
            drawStreet(street, intersections: intersections)
        }

        var signals: [Int: String] = [:]
        for row in 0..<side where rows[row].mainRoad {
            for column in 0..<side where columns[column].mainRoad {
                signals[row * side + column] = "traffic_signals"
            }
        }
        let coordinates = zip(x, y).map { Coordinate(longitude: $0 / xScale, latitude: $1 / metresPerDegree) }
        return OSMExtract(nodeIDs: (1...Int64(coordinates.count)).map { $0 }, nodeCoordinates: coordinates,
                          nodeHighwayTags: signals, ways: ways, restrictions: [])
    }

    /// The class and tags of street `number` (counting rows from 2, so that
    /// row and column arterials do not all meet at one corner).
    private static func street(number: Int, random: inout SplitMix64) -> Street {
        if number % 16 == 0 {
            return Street(tags: ["highway": "primary", "maxspeed": "50", "lanes": "4"],
                          mainRoad: true, missingPercent: 0)
        }
        if number % 8 == 0 {
            return Street(tags: ["highway": "secondary", "maxspeed": "50", "lanes": "2"],
                          mainRoad: true, missingPercent: 0)
        }
        if number % 4 == 0 {
            return Street(tags: ["highway": "tertiary"], mainRoad: false, missingPercent: 1)
        }
        var tags = ["highway": "residential"]
        if random.next() % 100 < 60 { tags["oneway"] = "yes" }
        if random.next() % 100 < 30 { tags["maxspeed"] = "30" }
        return Street(tags: tags, mainRoad: false, missingPercent: 6)
    }
}
