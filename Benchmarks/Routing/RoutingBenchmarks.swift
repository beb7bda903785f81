import Benchmark
import Foundation
import GeoKit
import Routing

/// The CCH router on synthetic Manhattan-like grids (the OSM graph replaces
/// them once the importer lands), one core: a 7k-node grid; a 100k-node grid
/// of intersections only, the worst case for nested dissection (separators of
/// √n, O(n^1.5) customization); and a 100k-node city drawn like an OSM
/// import (120 × 120 intersections, 3 shape points per road). Measured:
/// building the topology (nested-dissection order + contraction),
/// customizing one hour's metric, point-to-point queries against plain
/// Dijkstra, and many-to-one tables of 500 and 2,000 sources (target
/// selection included, as taxis move between requests); on cities drawn
/// with shape points also snapping 2,000 points (nearest road only, and with
/// the router's 15 m of candidate roads) and building the snapping index.
///
/// With `MYTAXI_BENCH_GRAPH=CITY.graph` (and optionally
/// `MYTAXI_BENCH_PAIRS=pairs.csv`, `source,target` node ids per line, as
/// Tools/routingkit-peer.py writes them) a graph file comes first (a real
/// extract, or a synthetic city of `mytaxi graph build --synthetic-nodes`),
/// with the topology the file stores, queried with the same pairs as the
/// RoutingKit reference (Tools/bench-routing.sh); its build is measured by
/// `mytaxi graph build`, not here.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .throughput], warmupIterations: 1,
                                           maxDuration: .seconds(3), maxIterations: 1_000)
    var cities: [(String, BenchCity)] = []
    if let path = ProcessInfo.processInfo.environment["MYTAXI_BENCH_GRAPH"] {
        cities.append((URL(fileURLWithPath: path).lastPathComponent,
                       BenchCity(graphFile: path, pairsFile: ProcessInfo.processInfo.environment["MYTAXI_BENCH_PAIRS"])))
    }
    if ProcessInfo.processInfo.environment["MYTAXI_BENCH_ONLY_GRAPH"] == nil {
        for (name, side, shapePoints) in [("7k grid", 84, 0), ("100k grid", 316, 0), ("100k OSM-like", 120, 3)] {
            cities.append((name, BenchCity(side: side, shapePoints: shapePoints)))
        }
    }
    for (name, city) in cities {
        let label = "\(name), \(city.graph.nodeCount) nodes"

        if !city.fromFile {
            Benchmark("CCH build: order + contraction (\(label))",
                      configuration: .init(metrics: [.wallClock, .peakMemoryResident], maxIterations: 3)) { _ in
                blackHole(CCHTopology(graph: city.graph))
            }
        }
        Benchmark("CCH customization, one hour (\(label))", configuration: .init(maxIterations: 20)) { _ in
            blackHole(CCHMetric(topology: city.topology, graph: city.graph, weights: city.weights))
        }
        Benchmark("P2P CCH query (\(label))", configuration: .init(scalingFactor: .kilo)) { benchmark in
            let query = CCHQuery(topology: city.topology)
            benchmark.startMeasurement()
            for iteration in benchmark.scaledIterations {
                let (source, target) = city.pairs[iteration % city.pairs.count]
                blackHole(query.shortestPath(from: [SearchSeed(node: source)], to: [SearchSeed(node: target)],
                                             metric: city.metric))
            }
        }
        Benchmark("P2P CCH query with path unpacking (\(label))", configuration: .init(scalingFactor: .kilo)) { benchmark in
            let query = CCHQuery(topology: city.topology)
            benchmark.startMeasurement()
            for iteration in benchmark.scaledIterations {
                let (source, target) = city.pairs[iteration % city.pairs.count]
                blackHole(query.shortestPath(from: [SearchSeed(node: source)], to: [SearchSeed(node: target)],
                                             metric: city.metric, unpack: true))
            }
        }
        Benchmark("P2P Dijkstra (\(label))", configuration: .init(maxIterations: 200)) { benchmark in
            let dijkstra = Dijkstra(graph: city.graph)
            benchmark.startMeasurement()
            for iteration in benchmark.scaledIterations {
                let (source, target) = city.pairs[iteration % city.pairs.count]
                blackHole(dijkstra.distance(from: Int(source), to: Int(target), weights: city.weights))
            }
        }
        for count in [500, 2_000] {
            Benchmark("Table many-to-one 1×\(count), selection + sweep (\(label))") { benchmark in
                let query = CCHQuery(topology: city.topology)
                let sources = city.seeds(count, seed: UInt64(count))
                benchmark.startMeasurement()
                for iteration in benchmark.scaledIterations {
                    let selection = CCHSelection(topology: city.topology, endpoints: sources)
                    blackHole(query.manyToOne(from: selection, to: [SearchSeed(node: city.pairs[iteration % 1000].1)],
                                              metric: city.metric))
                }
            }
            Benchmark("Table one-to-many 1×\(count), sweep only (\(label))") { benchmark in
                let query = CCHQuery(topology: city.topology)
                let selection = CCHSelection(topology: city.topology, endpoints: city.seeds(count, seed: UInt64(count)))
                benchmark.startMeasurement()
                for iteration in benchmark.scaledIterations {
                    blackHole(query.oneToMany(from: [SearchSeed(node: city.pairs[iteration % 1000].0)], to: selection,
                                              metric: city.metric))
                }
            }
        }
        guard city.hasShapePoints else { continue }
        let router = RoadRouter(graph: city.graph, topology: city.topology, timeZone: TimeZone(identifier: "UTC")!)
        Benchmark("Snapping index build (\(label))", configuration: .init(maxIterations: 10)) { _ in
            blackHole(Snapper(graph: city.graph))
        }
        let points = city.coordinates(2_000, seed: 11)
        // In one batch, as the fleet's snapping and a table's sources are snapped, and without measuring how far
        // a point off the map is (a failed `snap` scans every edge to say so).
        Benchmark("Snap 2000 points, nearest road (\(label))") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(router.snapper.candidatesIfNear(points, maxDistanceMetres: 250, radiusMetres: 0))
            }
        }
        Benchmark("Snap 2000 points, candidate roads within 15 m as the router does (\(label))") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(router.snapIfNear(points))
            }
        }
        // A fleet's fixes as they arrive: on the roads, give or take the GPS error, which is the input the
        // service snaps; with candidates the harder case, as more of them lie near several roads.
        let fixes = city.fixesOnRoads(2_000, seed: 13)
        Benchmark("Snap 2000 taxi fixes near roads, candidate roads within 15 m as the router does (\(label))") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(router.snapIfNear(fixes))
            }
        }
        let taxis = city.coordinates(500, seed: 5)
        let depart = Date(timeIntervalSince1970: 1_795_392_000 + 32 * 3600)
        _ = router.metric(departing: depart)
        Benchmark("RoadRouter: 500 taxis → pickup, snapping + many-to-one (\(label))") { benchmark in
            for iteration in benchmark.scaledIterations {
                blackHole(try router.table(from: taxis, to: taxis[(iteration * 7) % 500], depart: depart))
            }
        }
        Benchmark("RoadRouter: route with geometry, snapping included (\(label))",
                  configuration: .init(scalingFactor: .kilo)) { benchmark in
            for iteration in benchmark.scaledIterations {
                blackHole(try? router.route(from: taxis[iteration % 500], to: taxis[(iteration * 7 + 1) % 500],
                                            depart: depart, includeGeometry: true))
            }
        }
    }
}

/// One synthetic city with its topology, free-flow metric and query pairs.
struct BenchCity: Sendable {
    let graph: RoadGraph
    let topology: CCHTopology
    let weights: [UInt32]
    let metric: CCHMetric
    let pairs: [(UInt32, UInt32)]
    /// Whether roads have shape points between junctions (real or OSM-like
    /// graphs), where the router-level benchmarks are meaningful.
    let hasShapePoints: Bool
    /// Whether the city was read from a graph file (with its stored topology) rather than drawn here.
    let fromFile: Bool

    init(side: Int, shapePoints: Int) {
        graph = SyntheticCity.grid(columns: side, rows: side, shapePoints: shapePoints, seed: 42)
        topology = CCHTopology(graph: graph)
        weights = ProfiledEdgeSpeeds(graph: graph).edgeDurations(hourOfWeek: 32)
        metric = CCHMetric(topology: topology, graph: graph, weights: weights)
        var random = SplitMix64(state: 7)
        let count = UInt64(graph.nodeCount)
        pairs = (0..<1_000).map { _ in (UInt32(random.next() % count), UInt32(random.next() % count)) }
        hasShapePoints = shapePoints > 0
        fromFile = false
        FileHandle.standardError.write(Data("""
            \(side)×\(side) grid, \(shapePoints) shape points: \(graph.nodeCount) nodes, \(graph.edgeCount) edges, \
            \(topology.arcCount) CCH arcs, elimination tree height \(topology.eliminationTreeHeight)\n
            """.utf8))
    }

    /// A graph file with its stored topology (computed when it has none), free-flow metric, and the pairs of
    /// `pairsFile` (else random ones).
    init(graphFile: String, pairsFile: String?) {
        let contents = try! GraphFile.read(from: URL(fileURLWithPath: graphFile))
        graph = contents.graph
        topology = try! contents.extraSections[RoutingGraph.topologySection]
            .map { try CCHTopology(serialized: $0, for: contents.graph) } ?? CCHTopology(graph: graph)
        weights = graph.edgeDurationMs
        metric = CCHMetric(topology: topology, graph: graph, weights: weights)
        let listed = pairsFile.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) }?
            .split(separator: "\n").compactMap { line -> (UInt32, UInt32)? in
                let ids = line.split(separator: ",").compactMap { UInt32($0) }
                return ids.count == 2 ? (ids[0], ids[1]) : nil
            }
        var random = SplitMix64(state: 7)
        let count = UInt64(graph.nodeCount)
        pairs = listed ?? (0..<1_000).map { _ in (UInt32(random.next() % count), UInt32(random.next() % count)) }
        hasShapePoints = true
        fromFile = true
        FileHandle.standardError.write(Data("""
            \(graphFile): \(graph.nodeCount) nodes, \(graph.edgeCount) edges, \(topology.arcCount) CCH arcs, \
            elimination tree height \(topology.eliminationTreeHeight)\n
            """.utf8))
    }

    /// Random positions within the city's bounding box.
    func coordinates(_ count: Int, seed: UInt64) -> [Coordinate] {
        var random = SplitMix64(state: seed)
        let box = BoundingBox(enclosing: graph.coordinates)!
        return (0..<count).map { _ in
            Coordinate(longitude: .random(in: box.minX...box.maxX, using: &random),
                       latitude: .random(in: box.minY...box.maxY, using: &random))
        }
    }

    /// Positions a fleet would report: points at random along random roads,
    /// each moved by a GPS error drawn from a normal distribution of
    /// `gpsErrorMetres` standard deviation on each axis (Box-Muller).
    func fixesOnRoads(_ count: Int, seed: UInt64, gpsErrorMetres: Double = 8) -> [Coordinate] {
        var random = SplitMix64(state: seed)
        let tails = graph.edgeTails()
        return (0..<count).map { _ in
            let edge = Int(random.next() % UInt64(graph.edgeCount))
            let tail = graph.coordinates[Int(tails[edge])], head = graph.coordinates[Int(graph.edgeHead[edge])]
            let along = Double.random(in: 0...1, using: &random)
            let radius = gpsErrorMetres
                * (-2 * log(Double.random(in: Double.leastNormalMagnitude...1, using: &random))).squareRoot()
            let angle = Double.random(in: 0..<(2 * .pi), using: &random)
            return Coordinate(longitude: tail.longitude + (head.longitude - tail.longitude) * along,
                              latitude: tail.latitude + (head.latitude - tail.latitude) * along)
                .offset(eastMetres: radius * cos(angle), northMetres: radius * sin(angle))
        }
    }

    func seeds(_ count: Int, seed: UInt64) -> [[SearchSeed]] {
        var random = SplitMix64(state: seed)
        return (0..<count).map { _ in [SearchSeed(node: UInt32(random.next() % UInt64(graph.nodeCount)))] }
    }
}
