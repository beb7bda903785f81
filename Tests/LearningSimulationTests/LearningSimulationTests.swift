import Foundation
import GeoKit
import LearningSimulation
import Routing
import Testing

/// The learning benchmark on a small grid: taxis driving at speeds the
/// service does not know teach it, and an incident shows within minutes.
@Suite(.timeLimit(.minutes(20))) struct LearningSimulationTests {
    @Test func theServiceLearnsHiddenSpeedsAndNoticesAnIncident() throws {
        let graph = SyntheticCity.grid(columns: 15, rows: 15)
        var hidden = SpeedProfile(uniform: 0.4)
        hidden.tripOverheadSeconds = 60
        let serviceRouter = RoadRouter(graph: graph, timeZone: .gmt)
        let avenue = (0..<graph.edgeCount).filter { graph.edgeRoadClass[$0] == .primary }.prefix(40)
        let start = Date(timeIntervalSince1970: 1_704_096_000)
        let incident = RoadIncident(roadName: "the avenues", edges: Array(avenue), start: start.addingTimeInterval(1800),
                                    end: start.addingTimeInterval(5400), factor: 0.2)
        let trueRouter = RoadRouter(graph: graph, topology: serviceRouter.topology,
                                speeds: IncidentSpeeds(base: ProfiledEdgeSpeeds(graph: graph, profile: hidden), incidents: [incident]),
                                timeZone: .gmt, tripOverheadSeconds: hidden.tripOverheadSeconds)
        var settings = LearningSimulationSettings(start: start)
        settings.taxis = 60
        settings.checkpointHours = [0.25, 1]
        settings.scoredTrips = 60
        let report = LearningSimulation(trueRouter: trueRouter, serviceRouter: serviceRouter, settings: settings,
                                        incidents: [incident]).run()
        #expect(report.checkpoints.count == 2)
        let last = try #require(report.checkpoints.last)
        let learned = try #require(last.randomTrips), started = try #require(last.builtInRandomTrips)
        #expect(learned.rootMeanSquaredLogError < started.rootMeanSquaredLogError / 2, "learned \(learned), the profile it started from \(started)")
        #expect(abs(learned.medianRatio - 1) < 0.2)
        #expect(last.matchedFixes > 1000)
        let response = try #require(report.incidents.first)
        #expect(response.probes > 0)
        #expect(try #require(response.minutesUntilWithin20Percent) <= 15, "\(response)")
        #expect(report.matchingFixesPerSecond > 0 && report.recustomizationSeconds > 0)
        #expect(report.text.contains("Incident on the avenues"))
    }
}
