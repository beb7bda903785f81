import Foundation
import GeoKit
import Testing
@testable import Routing

/// The many-to-one table from snapped places on the demo map (Midtown
/// Manhattan, up to eight snap candidates per place, both directions each).
@Suite(.timeLimit(.minutes(20))) struct SnappedTableTests {
    static let router: RoadRouter = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let extract = try! OSMExtract(contentsOf: root.appendingPathComponent("Maps/manhattan-midtown.osm.pbf").path)
        return RoadRouter(graph: GraphBuilder.build(extract, profile: CarProfile()).graph, timeZone: TimeZone(identifier: "America/New_York")!)
    }()
    /// Tuesday 2026-11-24 08:00 in New York.
    static let tuesdayRush = Date(timeIntervalSince1970: 1_795_392_000 + 13 * 3600)

    /// Places at road nodes (every road meeting there is a candidate), near
    /// roads (10 m off a node) and far off every road (no place).
    static func places(_ count: Int, seed: UInt64) -> [Coordinate] {
        let coordinates = router.graph.coordinates
        var random = SplitMix64(state: seed)
        return (0..<count).map { index in
            let node = coordinates[Int(random.next() % UInt64(coordinates.count))]
            switch index % 10 {
            case 0: return Coordinate(longitude: node.longitude + 0.05, latitude: node.latitude)
            case 1...4: return Coordinate(longitude: node.longitude + 0.00012, latitude: node.latitude - 0.00003)
            default: return node
            }
        }
    }

    /// The table as one selection over an array of seeds per source, the way
    /// it was computed before the flat seed list: the reference it must equal.
    static func perSourceReference(_ sources: [SnappedPlace?], to target: Coordinate) throws -> [TravelEstimate?] {
        let router = Self.router
        let metric = router.metric(departing: tuesdayRush)
        let to = try router.targetEndpoint(target, metric)
        let from = sources.map { place in
            place.map { SnappedEndpoint(candidates: $0.candidates) { router.sourceSeeds($0, metric) } }
        }
        let selection = CCHSelection(topology: router.topology, endpoints: from.map { $0?.seeds ?? [] })
        let cells = CCHQuery(topology: router.topology).manyToOne(from: selection, to: to.seeds, metric: metric)
        return zip(from, cells).map { endpoint, cell in
            guard let endpoint else { return nil }
            return router.estimate(cell, direct: router.directDrive(from: endpoint.candidates, to: to.candidates, metric: metric))
        }
    }

    /// Every estimate, time and distance, equals the per-source computation
    /// to the bit, and its time equals the point-to-point route's: with a
    /// few sources for the graph (the table selects their seeds' ancestors)
    /// and with many (it sweeps every node).
    @Test(arguments: [300, 800])
    func manyToOneFromSnappedPlacesEqualsPerSourceTablesAndRoutes(sourceCount: Int) throws {
        let router = Self.router
        #expect((sourceCount * RoadRouter.sourcesPerNodeForSweepingEveryNode >= router.topology.nodeCount) == (sourceCount == 800))
        let sources = Self.places(sourceCount, seed: 11)
        let snapped = sources.map { try? router.snap($0) }
        #expect(snapped.contains { $0 == nil }, "some places are off the roads")
        for target in Self.places(6, seed: 23) where (try? router.snap(target)) != nil {
            let table = try router.table(fromSnapped: snapped, to: target, depart: Self.tuesdayRush)
            #expect(table == (try Self.perSourceReference(snapped, to: target)))
            for (source, estimate) in zip(sources, table) {
                let route = try? router.route(from: source, to: target, depart: Self.tuesdayRush)
                #expect(estimate?.durationSeconds == route?.durationSeconds)
            }
        }
    }

    /// A fleet's places kept flat (``SnappedPlaces``), a third of them
    /// replaced as their taxis move (on the roads or off them), asked about
    /// in another order, some twice, some not at all, some with no place
    /// kept: each estimate equals the per-source computation from the place
    /// now at its index, with a few sources for the graph and with many.
    @Test(arguments: [300, 800])
    func tableFromKeptPlacesEqualsPerSourceTables(sourceCount: Int) throws {
        let router = Self.router
        var current = Self.places(sourceCount, seed: 37).map { try? router.snap($0) }
        var kept = SnappedPlaces(current)
        for (offset, coordinate) in Self.places(sourceCount / 3, seed: 41).enumerated() {
            let place = try? router.snap(coordinate)
            kept.replace(at: offset * 3, with: place)
            current[offset * 3] = place
        }
        var random = SplitMix64(state: 43)
        let indices: [Int?] = (0..<sourceCount).map { position in
            position % 50 == 0 ? nil : Int(random.next() % UInt64(sourceCount))
        }
        let asked = indices.map { $0.flatMap { current[$0] } }
        #expect(asked.contains { $0 == nil } && asked.contains { $0 != nil })
        for target in Self.places(4, seed: 47) where (try? router.snap(target)) != nil {
            #expect(try router.table(fromSnapped: kept, at: indices, to: target, depart: Self.tuesdayRush)
                    == (try Self.perSourceReference(asked, to: target)))
        }
    }

    /// Sources on the target's own roads (the target itself and points a
    /// few metres along), where driving straight along the road can beat
    /// the search, get what the per-source computation gives, which checks
    /// every source for a shared road, not only those ``TargetRoads`` lets through.
    @Test func sourcesOnTheTargetsRoadsGetTheSameStraightDrives() throws {
        let router = Self.router
        let metric = router.metric(departing: Self.tuesdayRush)
        for target in Self.places(6, seed: 29) where (try? router.snap(target)) != nil {
            let along = (-3...3).map { Coordinate(longitude: target.longitude + Double($0) * 0.00004, latitude: target.latitude) }
            let snapped = (along + Self.places(50, seed: 31)).map { try? router.snap($0) }
            let to = try router.targetEndpoint(target, metric)
            let straight = snapped.compactMap { $0.flatMap { router.directDrive(from: $0.candidates, to: to.candidates, metric: metric) } }
            #expect(!straight.isEmpty, "some sources share a road with the target")
            #expect(try router.table(fromSnapped: snapped, to: target, depart: Self.tuesdayRush)
                    == (try Self.perSourceReference(snapped, to: target)))
        }
    }

    /// A selection as large as the graph (ordered by reading its marks) and
    /// a small one (ordered by sorting) list their ranks highest first, each once.
    @Test(arguments: [3, 3_000])
    func selectionsAreOrderedTopDown(sources: Int) throws {
        let router = Self.router
        let nodes = router.graph.nodeCount
        let endpoints = (0..<sources).map { [SearchSeed(node: UInt32(($0 * 7_919) % nodes))] }
        let selection = CCHSelection(topology: router.topology, endpoints: endpoints)
        #expect(selection.ranks == Array(Set(selection.ranks)).sorted(by: >))
        var ancestors = Set<UInt32>()
        for seeds in endpoints {
            var node = router.topology.rank[Int(seeds[0].node)]
            while node != UInt32.max { ancestors.insert(node); node = router.topology.parent[Int(node)] }
        }
        #expect(Set(selection.ranks) == ancestors)
    }
}
