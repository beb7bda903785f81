import Foundation
import TestSupport
import Testing

/// `mytaxi dispatch simulate`: the real engine against a simulated fleet,
/// deterministic for a seed (SPEC D9).
@Suite(.timeLimit(.minutes(20)), .tags(.longRunningProcesses)) struct DispatchSimulateCommandTests {
    /// A small grid of two-way streets, 3 × 3 blocks of about 110 m, and one zone over all of it.
    static func city() async throws -> (graph: String, zones: String) {
        let folder = try GraphCommandTests.temporaryFolder()
        var nodes = ""
        var ways = ""
        for row in 0..<4 {
            for column in 0..<4 {
                nodes += #"<node id="\#(row * 4 + column + 1)" lat="\#(Double(row) * 0.001)" lon="\#(Double(column) * 0.001)"/>"# + "\n"
            }
        }
        for index in 0..<4 {
            let rowNodes = (0..<4).map { #"<nd ref="\#(index * 4 + $0 + 1)"/>"# }.joined()
            let columnNodes = (0..<4).map { #"<nd ref="\#($0 * 4 + index + 1)"/>"# }.joined()
            ways += #"<way id="\#(100 + index)">\#(rowNodes)<tag k="highway" v="residential"/></way>"# + "\n"
            ways += #"<way id="\#(200 + index)">\#(columnNodes)<tag k="highway" v="residential"/></way>"# + "\n"
        }
        let map = folder.appendingPathComponent("grid.osm")
        try "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<osm version=\"0.6\" generator=\"test\">\n\(nodes)\(ways)</osm>\n"
            .write(to: map, atomically: true, encoding: .utf8)
        let zones = folder.appendingPathComponent("zones.geojson")
        try """
            {"type": "FeatureCollection", "features": [
             {"type": "Feature", "id": "moneghetti-west", "properties": {"name": "West"},
              "geometry": {"type": "Polygon", "coordinates": [[[-0.001, -0.001], [0.0015, -0.001], [0.0015, 0.004], [-0.001, 0.004], [-0.001, -0.001]]]}},
             {"type": "Feature", "id": "moneghetti-east", "properties": {"name": "East"},
              "geometry": {"type": "Polygon", "coordinates": [[[0.0015, -0.001], [0.004, -0.001], [0.004, 0.004], [0.0015, 0.004], [0.0015, -0.001]]]}}]}
            """.write(to: zones, atomically: true, encoding: .utf8)
        let graph = folder.appendingPathComponent("grid.graph").path
        let build = try await CommandRunner.run(["graph", "build", map.path, "-o", graph, "--time-zone", "UTC"])
        #expect(build.status == 0, "\(build.standardError)")
        return (graph, zones.path)
    }

    static func simulate(_ city: (graph: String, zones: String), seed: Int, extra: [String] = []) async throws -> CommandRunner.Result {
        try await CommandRunner.run([
            "dispatch", "simulate", "--zones", city.zones, "--graph", city.graph, "--taxis", "4",
            "--requests-per-hour", "120", "--hours", "3", "--refusal-rate", "0.2", "--seed", "\(seed)",
        ] + extra)
    }

    @Test func theSameSeedGivesTheSameReportByteForByte() async throws {
        let city = try await Self.city()
        let first = try await Self.simulate(city, seed: 7)
        let second = try await Self.simulate(city, seed: 7)
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardOutput == second.standardOutput)
        #expect(try await Self.simulate(city, seed: 8).standardOutput != first.standardOutput)
        #expect(first.standardError.contains("simulated hour 1 of 3"))
        let zoneLines = first.standardOutput.split(separator: "\n").filter { $0.hasPrefix("moneghetti") }
        #expect(Set(zoneLines.compactMap { $0.split(separator: " ").first.map(String.init) }) == ["moneghetti-east", "moneghetti-west"],
                "zone ids sharing a prefix are printed whole: \(first.standardOutput)")
    }

    /// What a user checks in the report: every zone line and the overall line
    /// add up, offers at least as many as rides, the estimate error printed.
    @Test func theReportAddsUp() async throws {
        let city = try await Self.city()
        let result = try await Self.simulate(city, seed: 3, extra: ["--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let overall = try #require(report["overall"] as? [String: Any])
        let zones = try #require(report["zones"] as? [[String: Any]])
        let requests = try #require(overall["requests"] as? Int)
        let served = try #require(overall["served"] as? Int)
        let offers = try #require(overall["offers"] as? Int)
        let refusals = try #require(overall["refusals"] as? Int)
        #expect(requests > 200 && requests < 520, "about 360 Poisson arrivals in 3 h: \(requests)")
        #expect(served > 0 && served <= requests)
        #expect(offers >= served + refusals - 4, "each ride was offered, each refusal was an offer")
        #expect(refusals > 0)
        let zoneRequests = zones.compactMap { ($0["figures"] as? [String: Any])?["requests"] as? Int }.reduce(0, +)
        #expect(zoneRequests == requests)
        #expect(overall["waitP50Seconds"] is Double && overall["estimateMdAPEPercent"] is Double)
    }

    /// SPEC D10: with every passenger asking to share, the run is compared
    /// with the same demand ridden alone; riders join shared rides, the
    /// fleet drives less, every rider's added delay stays within its bound.
    @Test func sharingIsComparedWithTheSameDemandRiddenAlone() async throws {
        let city = try await Self.city()
        let extra = ["--shared-share", "1", "--requests-per-hour", "600"]
        let result = try await Self.simulate(city, seed: 5, extra: extra + ["--json"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("matching") && result.standardError.contains("ms, p99"), "\(result.standardError)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let shared = try #require((document["withSharing"] as? [String: Any])?["sharing"] as? [String: Any])
        let alone = try #require((document["withoutSharing"] as? [String: Any])?["sharing"] as? [String: Any])
        let requests = try #require(((document["withSharing"] as? [String: Any])?["overall"] as? [String: Any])?["requests"] as? Int)
        #expect(shared["optedIn"] as? Int == requests && alone["optedIn"] as? Int == requests, "the same demand")
        #expect(shared["shared"] as? Bool == true && alone["shared"] as? Bool == false && alone["matched"] as? Int == 0)
        #expect((shared["matched"] as? Int ?? 0) > 0, "\(shared)")
        func kilometresPerRider(_ figures: [String: Any]) throws -> Double {
            try #require(figures["optInVehicleKilometres"] as? Double) / Double(try #require(figures["optInServed"] as? Int))
        }
        #expect(try kilometresPerRider(shared) < kilometresPerRider(alone), "\(shared) against \(alone)")
        #expect((shared["optInServed"] as? Int ?? 0) >= (alone["optInServed"] as? Int ?? 0), "no rider lost to sharing")
        let delayMean = try #require(shared["addedDelayMeanSeconds"] as? Double)
        let delayP90 = try #require(shared["addedDelayP90Seconds"] as? Double)
        #expect(delayMean > 0 && delayP90 <= 600, "riders were delayed, none beyond 10 min: \(delayMean), \(delayP90)")
        #expect(alone["addedDelayMeanSeconds"] as? Double == 0)
        #expect(shared["beyondBounds"] as? Int == 0, "every rider's wait and ride within its bounds: \(shared)")
        let text = try await Self.simulate(city, seed: 5, extra: extra)
        #expect(text.standardOutput.contains("sharing riders' vehicle-km"), "\(text.standardOutput)")
        #expect(try await Self.simulate(city, seed: 5, extra: extra).standardOutput == text.standardOutput, "byte for byte")
    }

    @Test(arguments: [
        (["--refusal-rate", "1.5"], "--refusal-rate must be from 0 to 1"),
        (["--shared-share", "1.5"], "--shared-share must be from 0 to 1"),
        (["--hours", "nan"], "--hours must be"),
        (["--taxis=-1"], "--taxis must be"),
    ])
    func badSettingsAreNamed(arguments: [String], message: String) async throws {
        let result = try await CommandRunner.run([
            "dispatch", "simulate", "--zones", "z", "--graph", "g", "--taxis", "4", "--requests-per-hour", "60", "--hours", "1",
        ] + arguments)
        #expect(result.status != 0)
        #expect(result.standardError.contains(message), "\(result.standardError)")
    }
}
