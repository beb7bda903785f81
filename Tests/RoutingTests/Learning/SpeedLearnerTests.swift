import Foundation
import GeoKit
import Testing
@testable import Routing

/// Speeds learned from fixes: where taxis drove slowly the router learns
/// it, thin data barely moves a street, the table survives serialization,
/// and the router takes new speeds while queries run.
@Suite(.timeLimit(.minutes(20))) struct SpeedLearnerTests {
    static let start = Date(timeIntervalSince1970: 1_704_096_000)  // Monday 2024-01-01 08:00 UTC

    /// The grid's router on the built-in profile, and a route across it.
    static func setup() throws -> (router: RoadRouter, route: TimedRoute, from: Coordinate, to: Coordinate) {
        let graph = SyntheticCity.grid(columns: 12, rows: 12)
        let router = RoadRouter(graph: graph, timeZone: .gmt)
        // Inside the grid: its rim has one-way dead ends.
        let from = graph.coordinates[12 * 2 + 2], to = graph.coordinates[12 * 9 + 9]
        return (router, try router.timedRoute(from: from, to: to, depart: start), from, to)
    }

    /// `taxis` taxis each drive `route` once, `slowdown` times slower than it says, a fix every 30 s from `start`.
    static func drive(_ route: TimedRoute, slowdown: Double, taxis: Int, into learner: SpeedLearner, start: Date) {
        for taxi in 0..<taxis {
            let departure = start.addingTimeInterval(Double(taxi) * 7)
            for elapsed in stride(from: 0.0, through: route.durationSeconds * slowdown, by: 30) {
                learner.observe(taxi: "T\(taxi)", at: route.position(after: elapsed / slowdown).coordinate,
                                time: departure.addingTimeInterval(elapsed), mayBeWaiting: false)
            }
        }
    }

    @Test func aRouteDrivenTwiceAsSlowlyByManyTaxisIsLearnedAsAboutTwiceAsLong() throws {
        let (router, route, from, to) = try Self.setup()
        let base = try #require(router.speeds as? ProfiledEdgeSpeeds)
        let learner = SpeedLearner(router: router, base: base)
        Self.drive(route, slowdown: 2, taxis: 20, into: learner, start: Self.start)
        #expect(learner.matchedFixes > 100)
        let depart = Self.start.addingTimeInterval(600)
        let before = try router.route(from: from, to: to, depart: depart).durationSeconds
        router.replaceSpeeds(with: learner.weeklySpeeds(), preparing: [depart])
        #expect(router.speedProvenance(departing: depart) == .learned)
        let after = try router.route(from: from, to: to, depart: depart).durationSeconds
        #expect(after > before * 1.6 && after < before * 2.3, "before \(before) s, learned \(after) s")
        #expect(router.speedProvenance(departing: depart.addingTimeInterval(3 * 3600)) == .profile, "nothing learned at 11:00")
    }

    @Test func oneSlowTaxiBarelyMovesTheStreetsItDrove() throws {
        let (router, route, from, to) = try Self.setup()
        let learner = SpeedLearner(router: router, base: try #require(router.speeds as? ProfiledEdgeSpeeds))
        Self.drive(route, slowdown: 3, taxis: 1, into: learner, start: Self.start)
        let depart = Self.start.addingTimeInterval(600)
        let before = try router.route(from: from, to: to, depart: depart).durationSeconds
        router.replaceSpeeds(with: learner.weeklySpeeds(), preparing: [depart])
        let after = try router.route(from: from, to: to, depart: depart).durationSeconds
        #expect(after > before && after < before * 2, "before \(before) s, after one taxi three times as slow \(after) s")
    }

    @Test func theLiveLayerAnswersForNowAndFadesAfterAQuarterOfAnHour() throws {
        let (router, route, _, _) = try Self.setup()
        let learner = SpeedLearner(router: router, base: try #require(router.speeds as? ProfiledEdgeSpeeds))
        Self.drive(route, slowdown: 2, taxis: 5, into: learner, start: Self.start)
        let now = try #require(learner.newestFixTime)
        let speeds = learner.speeds(now: now)
        #expect(speeds.provenance(departing: now, timeZone: .gmt) == .live)
        #expect(speeds.provenance(departing: now.addingTimeInterval(20 * 60), timeZone: .gmt) != .live, "the live layer is for now")
        #expect(speeds.provenance(departing: now.addingTimeInterval(24 * 3600), timeZone: .gmt) == .learned,
                "Tuesday at the same time: weekdays pool their time of day")
        #expect(speeds.provenance(departing: now.addingTimeInterval(5 * 24 * 3600), timeZone: .gmt) == .profile,
                "Saturday is learned apart from the weekdays")
        #expect(speeds.durationsKey(departing: now, timeZone: .gmt) != speeds.durationsKey(departing: now.addingTimeInterval(20 * 60), timeZone: .gmt))
    }

    @Test func theTableSurvivesSerializationAndKnowsItsGraph() throws {
        let (router, route, _, _) = try Self.setup()
        let learner = SpeedLearner(router: router, base: try #require(router.speeds as? ProfiledEdgeSpeeds))
        Self.drive(route, slowdown: 2, taxis: 3, into: learner, start: Self.start)
        let bytes = learner.table.serialized()
        let back = try LearnedSpeedTable(serialized: bytes, edgeCount: router.graph.edgeCount)
        #expect(back.cellCount == learner.table.cellCount && back.cellCount > 0)
        for (original, restored) in zip(learner.table.cells, back.cells) {
            #expect(original.edge == restored.edge && original.slot == restored.slot)
            #expect(abs(original.sums.logSum - restored.sums.logSum) < 1e-4 && abs(original.sums.weight - restored.sums.weight) < 1e-4)
        }
        #expect(throws: LearnedSpeedTableError.truncated(bytes: 13)) { try LearnedSpeedTable(serialized: bytes.prefix(13), edgeCount: 10) }
        #expect(throws: LearnedSpeedTableError.self) { try LearnedSpeedTable(serialized: bytes, edgeCount: 1) }
        let other = SyntheticCity.grid(columns: 12, rows: 13)
        #expect(LearnedSpeedTable.fingerprint(of: router.graph) != LearnedSpeedTable.fingerprint(of: other))
        #expect(LearnedSpeedTable.fingerprint(of: router.graph) == LearnedSpeedTable.fingerprint(of: SyntheticCity.grid(columns: 12, rows: 12)))
    }

    @Test func theExportedProfileIsSlowerWhereTaxisWereSlower() throws {
        let (router, route, _, _) = try Self.setup()
        let base = try #require(router.speeds as? ProfiledEdgeSpeeds)
        let learner = SpeedLearner(router: router, base: base)
        Self.drive(route, slowdown: 3, taxis: 30, into: learner, start: Self.start)
        let profile = learner.weeklySpeeds().speedProfile(tripOverheadSeconds: 42)
        let hour = SpeedProfile.hourOfWeek(Self.start, in: .gmt)
        let driven = Set(route.stretches.map { router.graph.edgeRoadClass[$0.edge] })
        #expect(driven.contains { profile.factor($0, hourOfWeek: hour) < base.profile.factor($0, hourOfWeek: hour) - 0.05 })
        #expect(profile.tripOverheadSeconds == 42)
        #expect(try SpeedProfile(parsing: profile.text) == profile, "the text form reads back")
    }

    @Test func queriesGoOnWhileTheRouterTakesNewSpeeds() async throws {
        let (router, route, from, to) = try Self.setup()
        let learner = SpeedLearner(router: router, base: try #require(router.speeds as? ProfiledEdgeSpeeds))
        Self.drive(route, slowdown: 2, taxis: 10, into: learner, start: Self.start)
        let depart = Self.start.addingTimeInterval(600)
        let profileSeconds = try router.route(from: from, to: to, depart: depart).durationSeconds
        let learned = learner.weeklySpeeds()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<200 {
                        let seconds = try router.route(from: from, to: to, depart: depart).durationSeconds
                        #expect(seconds >= profileSeconds * 0.99, "a query reads one metric or the other, never a mix that is faster")
                    }
                }
            }
            group.addTask {
                for round in 0..<20 {
                    router.replaceSpeeds(with: round.isMultiple(of: 2) ? learned : ProfiledEdgeSpeeds(graph: router.graph), preparing: [depart])
                }
            }
            try await group.waitForAll()
        }
        router.replaceSpeeds(with: learned, preparing: [depart])
        #expect(try router.route(from: from, to: to, depart: depart).durationSeconds > profileSeconds * 1.5)
    }
}
