import Foundation
import Testing

/// Travel times never fall silently to free flow (issue 19): a graph
/// carries its speed profile, which `eta` uses with no flag and a flag
/// overrides; a graph without a time zone says so on every command that
/// reads it; free flow only with --free-flow; old graph files are refused
/// with how to rebuild them.
@Suite(.timeLimit(.minutes(20))) struct GraphSpeedProfileTests {
    /// The block of ``GraphCommandTests/map`` built with `arguments`; the graph's path and the build's result.
    static func build(_ arguments: [String]) async throws -> (graph: String, result: CommandRunner.Result) {
        let folder = try GraphCommandTests.temporaryFolder()
        let map = folder.appendingPathComponent("block.osm")
        try GraphCommandTests.map.write(to: map, atomically: true, encoding: .utf8)
        let graph = folder.appendingPathComponent("block.graph").path
        return (graph, try await CommandRunner.run(["graph", "build", map.path, "-o", graph] + arguments))
    }

    /// Monday 08:15 in Monaco, the morning rush, along the one-way street.
    static let rushHourTrip = "0.0,0.0,0.001,0.0,2026-11-23T08:15:00+01:00\n"

    static func seconds(_ eta: CommandRunner.Result) -> Double {
        Double(eta.standardOutput.split(separator: ",").first ?? "") ?? 0
    }

    @Test func aGraphWithoutATimeZoneSaysSoOnEveryCommand() async throws {
        let (graph, build) = try await Self.build([])
        #expect(build.status == 0, "\(build.standardError)")
        #expect(build.standardError.contains("warning: \(graph) has no time zone: departure hours are read in UTC"))
        #expect(build.lines.contains("time zone: none (departure hours in UTC)"))
        #expect(build.lines.contains("speed profile: built-in dense-city"))

        let info = try await CommandRunner.run(["graph", "info", graph])
        #expect(info.lines.contains("time zone: none (departure hours in UTC)"))
        #expect(info.lines.contains("speed profile: built-in dense-city"))
        #expect(info.standardError.contains("has no time zone"))

        let eta = try await CommandRunner.run(["eta", "--graph", graph], input: Self.rushHourTrip)
        #expect(eta.standardError.contains("has no time zone"))
        let route = try await CommandRunner.run(["route", "--graph", graph, "--from=0.0,0.0", "--to=0.001,0.0"])
        #expect(route.standardError.contains("has no time zone"))
        let told = try await CommandRunner.run(["eta", "--graph", graph, "--time-zone", "Europe/Monaco"], input: Self.rushHourTrip)
        #expect(!told.standardError.contains("has no time zone"), "--time-zone gives the hours their zone")
    }

    @Test func theStoredProfileIsUsedWithNoFlagAndAFlagOverridesIt() async throws {
        let fitted = CommandRunner.packageRoot.appendingPathComponent("Profiles/nyc-manhattan.csv").path
        let (graph, build) = try await Self.build(["--time-zone", "Europe/Monaco", "--speed-profile", fitted])
        #expect(build.status == 0, "\(build.standardError)")
        #expect(!build.standardError.contains("has no time zone"))
        let info = try await CommandRunner.run(["graph", "info", graph])
        #expect(info.lines.contains("time zone: Europe/Monaco"))
        #expect(info.lines.contains { $0.hasPrefix("speed profile: from a file, trip overhead ") }, "\(info.standardOutput)")

        let stored = Self.seconds(try await CommandRunner.run(["eta", "--graph", graph], input: Self.rushHourTrip))
        let flagged = Self.seconds(
            try await CommandRunner.run(["eta", "--graph", graph, "--speed-profile", fitted], input: Self.rushHourTrip))
        let freeFlow = Self.seconds(try await CommandRunner.run(["eta", "--graph", graph, "--free-flow"], input: Self.rushHourTrip))
        #expect(stored > 0 && stored == flagged, "the graph's fitted profile, with no flag: \(stored) s, \(flagged) s")
        #expect(freeFlow > 0 && freeFlow < stored, "free flow only when asked: \(freeFlow) s against \(stored) s")
    }

    @Test func freeFlowIsStoredOnlyWhenAskedFor() async throws {
        let (graph, build) = try await Self.build(["--time-zone", "Europe/Monaco", "--free-flow"])
        #expect(build.status == 0, "\(build.standardError)")
        #expect(build.lines.contains("speed profile: free flow"))
        let both = try await Self.build(["--free-flow", "--speed-profile", "Profiles/nyc-manhattan.csv"]).result
        #expect(both.status == 2, "a usage error")
        #expect(both.standardError.contains("--free-flow and --speed-profile exclude each other"))
        let eta = try await CommandRunner.run(["eta", "--graph", graph, "--free-flow", "--speed-profile", "Profiles/nyc-manhattan.csv"])
        #expect(eta.standardError.contains("--free-flow and --speed-profile exclude each other"))
    }

    /// A file of format version 2 (before graphs always carried their profile) is refused, saying how to rebuild it.
    @Test func anOldGraphFileIsRefusedWithHowToRebuildIt() async throws {
        let (graph, build) = try await Self.build(["--time-zone", "Europe/Monaco"])
        #expect(build.status == 0, "\(build.standardError)")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: graph)))
        bytes[8] = 2
        try Data(bytes).write(to: URL(fileURLWithPath: graph))
        for command in [["graph", "info", graph], ["eta", "--graph", graph]] {
            let result = try await CommandRunner.run(command, input: Self.rushHourTrip)
            #expect(result.status == 2)
            #expect(result.standardError.contains("graph file format version 2 was written by an older mytaxi"), "\(result.standardError)")
            #expect(result.standardError.contains("mytaxi graph build MAP.osm.pbf -o CITY.graph --time-zone NAME"))
        }
    }
}
