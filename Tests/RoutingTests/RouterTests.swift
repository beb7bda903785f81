import Foundation
import GeoKit
import Testing
@testable import Routing

@Suite(.timeLimit(.minutes(20))) struct RouterTests {
    static let graph = TestGraphs.grid(30, 25, seed: 13)
    static let utc = TimeZone(identifier: "UTC")!
    static let router = RoadRouter(graph: graph, timeZone: utc)
    /// Tuesday 2026-11-24 03:00 and 08:00 UTC.
    static let tuesdayNight = Date(timeIntervalSince1970: 1_795_392_000 + 27 * 3600)
    static let tuesdayRush = Date(timeIntervalSince1970: 1_795_392_000 + 32 * 3600)

    static func randomPoints(_ count: Int, seed: UInt64) -> [Coordinate] {
        var random = SplitMix64(state: seed)
        return (0..<count).map { _ in
            Coordinate(longitude: -73.99 + .random(in: 0...0.027, using: &random),
                       latitude: 40.75 + .random(in: 0...0.017, using: &random))
        }
    }

    /// From snapped point to snapped point the router equals Dijkstra run from
    /// the same seeds: those of the nearest road, or of every candidate within the radius.
    @Test(arguments: [0.0, 15.0, 40.0])
    func routesEqualDijkstraBetweenSnappedPoints(radius: Double) throws {
        let router = RoadRouter(graph: Self.graph, timeZone: Self.utc, snapRadiusMetres: radius)
        let metric = router.metric(departing: Self.tuesdayRush)
        let dijkstra = Dijkstra(graph: Self.graph)
        let points = Self.randomPoints(400, seed: 3)
        for (source, target) in zip(points, points.dropFirst()) {
            let from = try router.sourceEndpoint(source, metric)
            let to = try router.targetEndpoint(target, metric)
            if router.directDrive(from: from.candidates, to: to.candidates, metric: metric) != nil {
                continue // same-road answers are checked in sourceAndTargetOnTheSameEdge
            }
            let reference = dijkstra.shortestPath(from: from.seeds, to: to.seeds, weights: metric.edgeWeights)
            let route = try? router.route(from: source, to: target, depart: Self.tuesdayRush)
            #expect(route.map { Int(($0.durationSeconds * 1000).rounded()) } == reference.map { Int($0.durationMs) })
        }
    }

    /// Both ends on one two-way road: the route drives straight along it, either way.
    @Test func sourceAndTargetOnTheSameEdge() throws {
        let router = Self.router
        // Row 0 is a two-way cross street; pick its first segment.
        let a = Self.graph.coordinates[0], b = Self.graph.coordinates[1]
        func along(_ t: Double) -> Coordinate {
            Coordinate(longitude: a.longitude + (b.longitude - a.longitude) * t, latitude: a.latitude + (b.latitude - a.latitude) * t)
        }
        let forward = try router.route(from: along(0.2), to: along(0.7), depart: Self.tuesdayNight, includeGeometry: true)
        let backward = try router.route(from: along(0.7), to: along(0.2), depart: Self.tuesdayNight)
        let length = a.haversineDistance(to: b)
        #expect(abs(forward.distanceMetres - 0.5 * length) < 1)
        #expect(abs(backward.distanceMetres - 0.5 * length) < 1)
        #expect(forward.geometry.count == 2)
        #expect(forward.durationSeconds < 10)
    }

    /// The many-to-one and one-to-many tables give the point-to-point answers,
    /// with or without snap candidates.
    @Test(arguments: [0.0, 15.0, 40.0])
    func tablesEqualRoutes(radius: Double) throws {
        let router = RoadRouter(graph: Self.graph, timeZone: Self.utc, snapRadiusMetres: radius)
        let taxis = Self.randomPoints(120, seed: 8)
        let pickup = Self.randomPoints(1, seed: 99)[0]
        let inward = try router.table(from: taxis, to: pickup, depart: Self.tuesdayRush)
        let outward = try router.table(from: pickup, to: taxis, depart: Self.tuesdayRush)
        for (index, taxi) in taxis.enumerated() {
            let toPickup = try? router.route(from: taxi, to: pickup, depart: Self.tuesdayRush)
            let fromPickup = try? router.route(from: pickup, to: taxi, depart: Self.tuesdayRush)
            #expect(inward[index]?.durationSeconds == toPickup?.durationSeconds)
            #expect(outward[index]?.durationSeconds == fromPickup?.durationSeconds)
            if let a = inward[index], let b = toPickup { #expect(abs(a.distanceMetres - b.distanceMetres) < 0.01 * b.distanceMetres + 1) }
        }
    }

    /// Candidates never make a route slower, and the snap distance reported is
    /// that of a road within the radius (the nearest's when the radius is 0).
    @Test func candidatesNeverSlowARouteDown() throws {
        let nearestOnly = RoadRouter(graph: Self.graph, timeZone: Self.utc, snapRadiusMetres: 0)
        let router = RoadRouter(graph: Self.graph, timeZone: Self.utc, snapRadiusMetres: 40)
        let points = Self.randomPoints(200, seed: 5)
        var faster = 0
        for (source, target) in zip(points, points.dropFirst()) {
            let before = try nearestOnly.route(from: source, to: target, depart: Self.tuesdayRush, includeGeometry: true)
            let after = try router.route(from: source, to: target, depart: Self.tuesdayRush, includeGeometry: true)
            #expect(after.durationSeconds <= before.durationSeconds)
            if after.durationSeconds < before.durationSeconds { faster += 1 }
            let nearest = try router.snapper.snap(source, maxDistanceMetres: 250)
            // The snapping index keeps segments in single precision: distances agree to a tenth of a millimetre.
            #expect(after.sourceSnapMetres > nearest.distanceMetres - 1e-4 && after.sourceSnapMetres < max(40, nearest.distanceMetres + 1e-4))
            #expect(abs(source.haversineDistance(to: after.geometry.first!) - after.sourceSnapMetres) < 0.5)
            #expect(abs(target.haversineDistance(to: after.geometry.last!) - after.targetSnapMetres) < 0.5)
            #expect(abs(before.sourceSnapMetres - nearest.distanceMetres) < 1e-9)
        }
        #expect(faster > 0)
    }

    /// The geometry runs from the snapped source to the snapped target, and its length is the route's distance.
    @Test func geometryFollowsTheRoute() throws {
        let points = Self.randomPoints(2, seed: 41)
        let route = try Self.router.route(from: points[0], to: points[1], depart: Self.tuesdayNight, includeGeometry: true)
        #expect(route.geometry.count >= 2)
        #expect(points[0].haversineDistance(to: route.geometry.first!) <= route.sourceSnapMetres + 0.5)
        #expect(points[1].haversineDistance(to: route.geometry.last!) <= route.targetSnapMetres + 0.5)
        let drawn = zip(route.geometry, route.geometry.dropFirst()).reduce(0) { $0 + $1.0.haversineDistance(to: $1.1) }
        #expect(abs(drawn - route.distanceMetres) < 0.01 * route.distanceMetres + 1)
    }

    /// The same trip takes longer in the Tuesday-morning rush than at night.
    @Test func rushHourIsSlowerThanNight() throws {
        let points = Self.randomPoints(2, seed: 17)
        let night = try Self.router.route(from: points[0], to: points[1], depart: Self.tuesdayNight)
        let rush = try Self.router.route(from: points[0], to: points[1], depart: Self.tuesdayRush)
        #expect(rush.durationSeconds > night.durationSeconds * 1.2)
    }

    /// A taxi arrives in time when wait plus drive fits before the deadline, with the margin reported.
    @Test func reachabilityAnswersYesAndNo() throws {
        let points = Self.randomPoints(2, seed: 23)
        let drive = try Self.router.route(from: points[0], to: points[1], depart: Self.tuesdayNight.addingTimeInterval(60))
        let roomy = try Self.router.reachability(from: points[0], to: points[1], depart: Self.tuesdayNight,
                                                 deadline: Self.tuesdayNight.addingTimeInterval(60 + drive.durationSeconds + 30),
                                                 expectedWait: 60)
        #expect(roomy.reachable)
        #expect(abs(roomy.marginSeconds - 30) < 0.01)
        let tight = try Self.router.reachability(from: points[0], to: points[1], depart: Self.tuesdayNight,
                                                 deadline: Self.tuesdayNight.addingTimeInterval(drive.durationSeconds),
                                                 expectedWait: 60)
        #expect(!tight.reachable)
        #expect(abs(tight.marginSeconds + 60) < 0.01)
    }

    /// A coordinate far from every road is refused with the snapping error.
    @Test func farCoordinatesAreRefused() {
        #expect(throws: SnapError.self) {
            try Self.router.route(from: Coordinate(longitude: -73.5, latitude: 40.75),
                                  to: Self.graph.coordinates[0], depart: Self.tuesdayNight)
        }
    }
}

@Suite(.timeLimit(.minutes(20))) struct RouterConcurrencyTests {
    /// Many tasks routing at once, over several hours, get the answers a single caller gets.
    @Test func concurrentCallersGetTheSequentialAnswers() async throws {
        let router = RoadRouter(graph: RouterTests.graph, timeZone: RouterTests.utc, maxCachedMetrics: 2)
        let points = RouterTests.randomPoints(80, seed: 31)
        let departures = (0..<4).map { RouterTests.tuesdayNight.addingTimeInterval(Double($0) * 5 * 3600) }
        let jobs: [(Coordinate, Coordinate, Date)] = (0..<160).map { index in
            let from = points[index % 80], to = points[(index * 7 + 3) % 80]
            return (from, to, departures[index % 4])
        }
        let expected = jobs.map { try? router.route(from: $0.0, to: $0.1, depart: $0.2).durationSeconds }
        let found = await withTaskGroup(of: (Int, Double?).self) { group in
            for (index, job) in jobs.enumerated() {
                group.addTask { (index, try? router.route(from: job.0, to: job.1, depart: job.2).durationSeconds) }
            }
            var results = [Double?](repeating: nil, count: jobs.count)
            for await (index, duration) in group { results[index] = duration }
            return results
        }
        #expect(found == expected)
    }
}

/// A speed source whose durations can be changed, as live fleet speeds will be.
final class AdjustableSpeeds: EdgeSpeedSource, @unchecked Sendable {
    private let lock = NSLock()
    private var durations: [UInt32]
    init(_ durations: [UInt32]) { self.durations = durations }
    func set(_ durations: [UInt32]) { lock.withLock { self.durations = durations } }
    func edgeDurations(hourOfWeek: Int) -> [UInt32] { lock.withLock { durations } }
}

@Suite(.timeLimit(.minutes(20))) struct LiveSpeedTests {
    /// After the source's durations change and the metrics are discarded, routes use the new speeds.
    @Test func discardedMetricsAreRebuiltFromTheSource() throws {
        let graph = RouterTests.graph
        let speeds = AdjustableSpeeds(graph.edgeDurationMs)
        let router = RoadRouter(graph: graph, speeds: speeds, timeZone: RouterTests.utc)
        let points = RouterTests.randomPoints(2, seed: 77)
        let before = try router.route(from: points[0], to: points[1], depart: RouterTests.tuesdayRush)
        speeds.set(graph.edgeDurationMs.map { $0 * 3 })
        let cached = try router.route(from: points[0], to: points[1], depart: RouterTests.tuesdayRush)
        #expect(cached == before)
        router.discardMetrics()
        let after = try router.route(from: points[0], to: points[1], depart: RouterTests.tuesdayRush)
        #expect(abs(after.durationSeconds - 3 * before.durationSeconds) < 0.01)
    }
}
