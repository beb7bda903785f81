import Foundation
import Testing
@testable import Routing

/// A graph file routes with the speed profile it carries (a flag's profile
/// overriding it), in its time zone or else in UTC, and one without a
/// profile is refused rather than routed at free flow (issue 19).
@Suite(.timeLimit(.minutes(20))) struct RoutingGraphTests {
    /// The sample graph written with the routing sections of `timeZone` and `profile`.
    static func written(timeZone: TimeZone?, profile: SpeedProfile) throws -> URL {
        let result = try GraphFileTests.sampleBuild()
        let url = GraphFileTests.temporaryFile()
        let sections = RoutingGraph.sections(
            for: result.graph, topology: CCHTopology(graph: result.graph), timeZone: timeZone, speedProfile: profile)
        try GraphFile.write(graph: result.graph, profile: "car", extraSections: sections, to: url)
        return url
    }

    static var fitted: SpeedProfile {
        var profile = SpeedProfile.denseCity
        profile.tripOverheadSeconds = 75
        profile.setZoneFactor(0.5, for: "161", hourOfWeek: 8)
        return profile
    }

    @Test func theStoredProfileAndTimeZoneAreTheRoutersUnlessOverridden() throws {
        let newYork = try #require(TimeZone(identifier: "America/New_York"))
        let url = try Self.written(timeZone: newYork, profile: Self.fitted)
        defer { try? FileManager.default.removeItem(at: url) }
        let stored = try RoutingGraph.load(from: url)
        #expect((stored.speeds as? ProfiledEdgeSpeeds)?.profile == Self.fitted)
        #expect(stored.tripOverheadSeconds == 75)
        #expect(stored.timeZone == newYork)

        let paris = try #require(TimeZone(identifier: "Europe/Paris"))
        let overridden = try RoutingGraph.load(from: url, speedProfile: .freeFlow, timeZone: paris)
        #expect((overridden.speeds as? ProfiledEdgeSpeeds)?.profile == .freeFlow)
        #expect(overridden.tripOverheadSeconds == 0)
        #expect(overridden.timeZone == paris)
    }

    @Test func aGraphWithoutATimeZoneRoutesInUTCAndSaysSo() throws {
        let url = try Self.written(timeZone: nil, profile: .denseCity)
        defer { try? FileManager.default.removeItem(at: url) }
        let contents = try GraphFile.read(from: url)
        #expect(RoutingGraph.timeZone(in: contents) == nil)
        #expect(try RoutingGraph.router(for: contents).timeZone == TimeZone(identifier: "UTC"))
        let warning = RoutingGraph.missingTimeZoneWarning(graphPath: "m.graph")
        #expect(warning.hasPrefix("warning: m.graph has no time zone"))
        #expect(warning.contains("UTC"))
        #expect(warning.contains("--time-zone"))
    }

    @Test func aGraphWithoutASpeedProfileIsRefused() throws {
        let result = try GraphFileTests.sampleBuild()
        let url = GraphFileTests.temporaryFile()
        defer { try? FileManager.default.removeItem(at: url) }
        try GraphFile.write(graph: result.graph, profile: "car", to: url)
        #expect(throws: GraphFileError.missingSection(RoutingGraph.speedProfileSection)) {
            try RoutingGraph.load(from: url)
        }
    }

    @Test func aProfileSaysWhichItIs() {
        #expect(SpeedProfile.denseCity.summary == "built-in dense-city")
        #expect(SpeedProfile.freeFlow.summary == "free flow")
        #expect(Self.fitted.summary == "from a file, trip overhead 75 s, zone factors: 1")
    }
}
