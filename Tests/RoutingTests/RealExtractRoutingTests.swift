import Foundation
import GeoKit
import Testing
@testable import Routing

/// The query engine on the real extracts of `../shared/data`: exact against
/// Dijkstra, tables against point-to-point, and known trips in a realistic
/// range. Each test skips, naming the missing file, when the data is absent.
@Suite(.timeLimit(.minutes(20))) struct RealExtractRoutingTests {
    static let extracts = ["nyc/manhattan.osm.pbf", "monaco/monaco.osm.pbf"]

    static func graph(_ file: String) throws -> RoadGraph? {
        guard let path = RealExtractTests.path(file) else {
            print("skipped: \(RealExtractTests.dataFolder.path)/\(file) is absent")
            return nil
        }
        return GraphBuilder.build(try OSMExtract(contentsOf: path), profile: CarProfile()).graph
    }

    /// Thousands of random node pairs, free flow and Monday 08:00 rush hour:
    /// the CCH answer equals plain Dijkstra's, to the millisecond.
    @Test(arguments: extracts)
    func pointToPointEqualsDijkstra(file: String) throws {
        guard let graph = try Self.graph(file) else { return }
        let topology = CCHTopology(graph: graph)
        let query = CCHQuery(topology: topology)
        let dijkstra = Dijkstra(graph: graph)
        let rush = ProfiledEdgeSpeeds(graph: graph, profile: .denseCity).edgeDurations(hourOfWeek: 8)
        for (label, weights) in [("free flow", graph.edgeDurationMs), ("rush hour", rush)] {
            let metric = CCHMetric(topology: topology, graph: graph, weights: weights)
            var mismatches = 0
            for (source, target) in TestGraphs.pairs(2_000, nodes: graph.nodeCount, seed: 17) {
                let expected = dijkstra.distance(from: source, to: target, weights: weights)
                let found = query.shortestPath(from: [SearchSeed(node: UInt32(source))],
                                               to: [SearchSeed(node: UInt32(target))], metric: metric)
                if (found?.durationMs ?? unreachableMs) != expected { mismatches += 1 }
            }
            #expect(mismatches == 0, "\(file), \(label): \(mismatches) of 2,000 pairs differ from Dijkstra")
        }
    }

    /// 300 taxis to one pickup (many-to-one) and one taxi to 300 places
    /// (one-to-many) give what 300 point-to-point routes give.
    @Test(arguments: extracts)
    func tablesEqualPointToPointRoutes(file: String) throws {
        guard let graph = try Self.graph(file) else { return }
        let router = RoadRouter(graph: graph, timeZone: TimeZone(identifier: "UTC")!)
        var random = SplitMix64(state: 5)
        let points = (0..<301).map { _ in graph.coordinates[Int(random.next() % UInt64(graph.nodeCount))] }
        let depart = Date(timeIntervalSince1970: 1_795_420_800)
        let pickup = points[0], taxis = Array(points.dropFirst())
        let inward = try router.table(from: taxis, to: pickup, depart: depart)
        let outward = try router.table(from: pickup, to: taxis, depart: depart)
        for (index, taxi) in taxis.enumerated() {
            let toPickup = try? router.route(from: taxi, to: pickup, depart: depart)
            let fromPickup = try? router.route(from: pickup, to: taxi, depart: depart)
            #expect(inward[index]?.durationSeconds == toPickup?.durationSeconds, "taxi \(index) → pickup")
            #expect(outward[index]?.durationSeconds == fromPickup?.durationSeconds, "pickup → taxi \(index)")
        }
    }

    /// Known drives, free flow and at the built-in rush-hour speeds, in a
    /// realistic range. Distances from the street grid: Manhattan's
    /// numbered streets are 20 to the mile (about 80 m apart) and its
    /// avenues about 250–280 m apart (the Commissioners' Plan of 1811), so a
    /// drive is at least the blocks it crosses; Monaco's Rock is reached by
    /// one climbing road round the port, two to three times the 1.1 km
    /// straight line. Durations must lie between free flow at 90 km/h and a
    /// walking pace.
    @Test(arguments: [
        // Times Square (7th Ave & W 45th St) to Penn Station (8th Ave & W 33rd St): 12 blocks and an avenue, 1.2 km at least.
        ("nyc/manhattan.osm.pbf", Coordinate(longitude: -73.9855, latitude: 40.7580),
         Coordinate(longitude: -73.99377, latitude: 40.75141), 1_200.0, 2_600.0),
        // Union Square (Broadway & E 17th St) to Grand Central (E 42nd St & Park Ave): 25 blocks and two avenues, 2.5 km.
        ("nyc/manhattan.osm.pbf", Coordinate(longitude: -73.9900, latitude: 40.7370),
         Coordinate(longitude: -73.9772, latitude: 40.7527), 2_000.0, 4_500.0),
        // Casino de Monte-Carlo to the Prince's Palace on the Rock: 1.1 km as the crow flies, 2–4 km by road.
        ("monaco/monaco.osm.pbf", Coordinate(longitude: 7.4283, latitude: 43.7394),
         Coordinate(longitude: 7.4200, latitude: 43.7316), 2_000.0, 4_000.0),
    ])
    func knownTripsAreInARealisticRange(file: String, from: Coordinate, to: Coordinate, minMetres: Double, maxMetres: Double) throws {
        guard let graph = try Self.graph(file) else { return }
        let router = RoadRouter(graph: graph, timeZone: TimeZone(identifier: "UTC")!)
        let night = try router.route(from: from, to: to, depart: Date(timeIntervalSince1970: 1_795_406_400))  // Monday 03:00
        let rush = try router.route(from: from, to: to, depart: Date(timeIntervalSince1970: 1_795_420_800))   // Monday 08:00
        #expect((minMetres...maxMetres).contains(night.distanceMetres), "\(night.distanceMetres) m")
        let freeFlowFloor = night.distanceMetres / (90 / 3.6)
        let walkingCeiling = night.distanceMetres / (5 / 3.6)
        #expect(night.durationSeconds > freeFlowFloor && night.durationSeconds < walkingCeiling)
        #expect(rush.durationSeconds > night.durationSeconds, "rush hour is slower")
        #expect(rush.durationSeconds < walkingCeiling)
        #expect(night.sourceSnapMetres < 60 && night.targetSnapMetres < 60)
    }
}

/// Meeting points on a real city (SPEC R5): from places cars do not reach,
/// the walk to where a taxi can stop, routed on the same extract's paths.
@Suite(.timeLimit(.minutes(20))) struct RealExtractMeetingPointTests {
    @Test(arguments: [
        // Bryant Park's lawn, behind the Public Library: about 100 m from 6th Avenue, W 40th and W 42nd Streets.
        ("nyc/manhattan.osm.pbf", Coordinate(longitude: -73.98365, latitude: 40.75360)),
        // Madison Square Park, between 5th and Madison Avenues, E 23rd and E 26th Streets.
        ("nyc/manhattan.osm.pbf", Coordinate(longitude: -73.98795, latitude: 40.74195)),
    ])
    func aPickupWhereNoCarGoesIsMetAtTheNearestStreetOnFoot(file: String, pickup: Coordinate) throws {
        guard let path = RealExtractTests.path(file) else {
            print("skipped: \(RealExtractTests.dataFolder.path)/\(file) is absent")
            return
        }
        let extract = try OSMExtract(contentsOf: path)
        let car = RoadRouter(graph: GraphBuilder.build(extract, profile: CarProfile()).graph, timeZone: .gmt)
        let foot = RoadRouter(graph: GraphBuilder.build(extract, profile: FootProfile()).graph, timeZone: .gmt)
        let meeting = try #require(try MeetingPoints(car: car, foot: foot).meetingPoint(for: pickup, depart: Date(timeIntervalSince1970: 1_795_420_800)))
        let straight = pickup.haversineDistance(to: meeting.stop)
        print("\(file): meeting point \(meeting.stop), \(Int(straight)) m away, walk \(Int(meeting.walkMetres)) m in \(Int(meeting.walkSeconds)) s")
        #expect(meeting.walkRouted)
        #expect(straight > MeetingPoints.kerbsideMetres)
        #expect(meeting.walkMetres >= straight * 0.98 && meeting.walkMetres < straight * 2.5 + 100)
        let stop = try car.snapper.snap(meeting.stop, maxDistanceMetres: 1)
        #expect(MeetingPoints.taxiCanStop(on: car.graph.edgeRoadClass[stop.edge]))
    }
}
