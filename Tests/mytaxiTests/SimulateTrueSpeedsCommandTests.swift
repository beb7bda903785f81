import Foundation
import Routing
import Testing

/// `mytaxi simulate run` and `plan` drive their taxis at true speeds the
/// service does not know (--true-speed-profile, --incident on a named
/// road), so that its learning from the fixes can be watched; a wrong
/// incident or profile is refused with what is wrong and exit status 2.
@Suite(.timeLimit(.minutes(20))) struct SimulateTrueSpeedsCommandTests {
    static let zones = CommandRunner.packageRoot.appendingPathComponent("Zones/manhattan/zones.geojson").path

    /// `mytaxi simulate plan` on the demo city (or `graph`) for 8 taxis and half an hour, with `arguments`.
    static func plan(_ arguments: [String], graph: String? = nil) async throws -> CommandRunner.Result {
        let graph = if let graph { graph } else { try await DemoGraph.path() }
        return try await CommandRunner.run([
            "simulate", "plan", "--zones", zones, "--graph", graph, "--start", "2026-11-23T13:00:00Z",
            "--taxis", "8", "--passengers", "1", "--requests-per-hour", "1", "--hours", "0.5", "--gap-rate", "0", "--seed", "3",
        ] + arguments)
    }

    /// A speed profile file of one rule, every road at `factor` of free flow at every hour.
    static func uniformProfile(_ factor: Double) throws -> String {
        let file = try GraphCommandTests.temporaryFolder().appendingPathComponent("uniform.csv")
        try "road_class,hour_of_week,factor\n*,*,\(factor)\n".write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    /// The speeds, km/h, of the plan's fixes taken while driving.
    static func drivingSpeeds(_ plan: String) -> [Double] {
        plan.split(separator: "\n").filter { $0.hasPrefix("fix ") }.compactMap { line in
            line.range(of: " km/h").flatMap { unit in Double(line[..<unit.lowerBound].split(separator: " ").last ?? "") }
        }.filter { $0 > 0 }
    }

    @Test func aTrueSpeedProfileChangesHowFastTheTaxisDrive() async throws {
        let freeFlow = try await Self.plan(["--true-speed-profile", try Self.uniformProfile(1)])
        let quarter = try await Self.plan(["--true-speed-profile", try Self.uniformProfile(0.25)])
        #expect(freeFlow.status == 0, "\(freeFlow.standardError)")
        #expect(quarter.status == 0, "\(quarter.standardError)")
        let fast = Self.drivingSpeeds(freeFlow.standardOutput), slow = Self.drivingSpeeds(quarter.standardOutput)
        #expect(fast.count > 20 && slow.count > 20, "fixes while driving: \(fast.count), \(slow.count)")
        let fastMean = fast.reduce(0, +) / Double(max(fast.count, 1)), slowMean = slow.reduce(0, +) / Double(max(slow.count, 1))
        // Each road at a quarter of its speed; the roads the fixes fall on differ a little, as the drives' timings do.
        #expect((0.15...0.35).contains(slowMean / fastMean), "mean speeds \(slowMean) and \(fastMean) km/h: about a quarter")
    }

    /// An incident slows the taxis that drive the road; the plan runs with it.
    @Test func anIncidentOnANamedRoadIsTakenAndChangesTheDrives() async throws {
        let usual = try await Self.plan(["--taxis", "30"])
        let slowed = try await Self.plan(["--taxis", "30", "--incident", "7th Avenue,0,60,0.1"])
        #expect(slowed.status == 0, "\(slowed.standardError)")
        #expect(slowed.standardOutput != usual.standardOutput)
    }

    @Test(arguments: [
        ("7th Avenue,5,60", "--incident: '7th Avenue,5,60': expected 4 fields ROAD NAME,FROM,MINUTES,FACTOR, found 3"),
        ("7th Avenue,soon,60,0.5", "--incident: field FROM: 'soon' is not a number of minutes after the start, 0 or more"),
        ("7th Avenue,5,0,0.5", "--incident: field MINUTES: '0' is not a duration in minutes above 0"),
        ("7th Avenue,5,60,0", "--incident: field FACTOR: '0' is not a speed multiplier in (0, 2]"),
        ("7th Avenu,5,60,0.5", "--incident: no road of the graph is named '7th Avenu' (did you mean '7th Avenue'"),
    ])
    func aWrongIncidentIsRefusedSayingWhatIsWrong(incident: String, message: String) async throws {
        let run = try await Self.plan(["--incident", incident])
        #expect(run.status == 2, "misuse")
        #expect(run.standardError.contains(message), "\(run.standardError)")
        #expect(run.standardOutput.isEmpty)
    }

    @Test func anIncidentOnAGraphWithoutRoadNamesSaysToRebuildIt() async throws {
        let contents = try await GraphFile.read(from: URL(fileURLWithPath: try DemoGraph.path()))
        let unnamed = try GraphCommandTests.temporaryFolder().appendingPathComponent("unnamed.graph")
        try GraphFile.write(
            graph: contents.graph, profile: contents.profileName,
            extraSections: contents.extraSections.filter { ![EdgeNames.namesSection, EdgeNames.edgeSection].contains($0.key) }, to: unnamed)
        #expect(try await Self.plan([], graph: unnamed.path).status == 0, "a graph without names serves every other use")
        let run = try await Self.plan(["--incident", "7th Avenue,5,60,0.5"], graph: unnamed.path)
        #expect(run.status == 2)
        #expect(run.standardError.contains("--incident: the graph has no road names: build it again with `mytaxi graph build`"),
                "\(run.standardError)")
    }

    @Test func aTrueSpeedProfileIsRefusedBesideAnotherProfileOrWhenUnreadable() async throws {
        let profile = try Self.uniformProfile(0.5)
        for other in [["--speed-profile", profile], ["--free-flow"]] {
            let run = try await Self.plan(["--true-speed-profile", profile] + other)
            #expect(run.status == 2)
            #expect(run.standardError.contains("--true-speed-profile excludes --speed-profile and --free-flow"), "\(run.standardError)")
        }
        let missing = try await Self.plan(["--true-speed-profile", "/nonexistent/true.csv"])
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("/nonexistent/true.csv"), "\(missing.standardError)")
    }
}
