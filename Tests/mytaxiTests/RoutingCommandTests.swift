import Foundation
import GeoKit
import JSONKit
import Testing

/// `mytaxi eta` and `mytaxi route` keep their contract, on a drawn block
/// with a one-way street: the way round is three times the way along it.
@Suite(.timeLimit(.minutes(20))) struct RoutingCommandTests {
    /// Builds the block of ``GraphCommandTests/map`` into a graph file.
    static func blockGraph() async throws -> String {
        let folder = try GraphCommandTests.temporaryFolder()
        let map = folder.appendingPathComponent("block.osm")
        try GraphCommandTests.map.write(to: map, atomically: true, encoding: .utf8)
        let graph = folder.appendingPathComponent("block.graph").path
        let build = try await CommandRunner.run(["graph", "build", map.path, "-o", graph, "--time-zone", "Europe/Monaco"])
        #expect(build.status == 0, "\(build.standardError)")
        return graph
    }

    @Test func etaStreamsOneLinePerTripWithEmptyLinesForWhatCannotBeRouted() async throws {
        let graph = try await Self.blockGraph()
        let input = """
            0.0,0.0,0.001,0.0
            0.001,0.0,0.0,0.0,2026-11-23T08:00:00+01:00
            0.0,0.0,5.0,5.0
            not a trip
            0.0,0.0,0.001,0.0,yesterday

            """
        let result = try await CommandRunner.run(["eta", "--graph", graph], input: input)
        #expect(result.status == 0)
        let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 6, "one line per input line: \(lines)")
        let along = lines[0].split(separator: ",").compactMap { Double($0) }
        let round = lines[1].split(separator: ",").compactMap { Double($0) }
        #expect(along.count == 2 && round.count == 2)
        #expect(abs(along[1] - 111.2) < 1, "along the one-way street: \(lines[0])")
        #expect(abs(round[1] - 333.6) < 2, "against it, round the block: \(lines[1])")
        #expect(round[0] > 2.5 * along[0])
        #expect(lines[2].isEmpty && lines[3].isEmpty && lines[4].isEmpty)
        #expect(result.standardError.contains("line 4: expected `from_lon,from_lat,to_lon,to_lat[,depart_iso8601]`"))
        #expect(result.standardError.contains("line 5: expected"))
    }

    @Test func routeExplainsItselfAndDrawsTheWayRound() async throws {
        let graph = try await Self.blockGraph()
        let text = try await CommandRunner.run(["route", "--graph", graph, "--from", "0.001,0.0", "--to", "0.0,0.0",
                                          "--depart", "2026-11-23T03:00:00+01:00"])
        #expect(text.status == 0, "\(text.standardError)")
        #expect(text.lines.contains { $0.hasPrefix("distance_m: 333.") })
        #expect(text.lines.contains("depart: 2026-11-23T03:00:00+0100"), "departure shown in the graph's time zone")

        let feature = try await CommandRunner.run(["route", "--graph", graph, "--from", "0.001,0.0", "--to", "0.0,0.0", "--geojson"])
        let json = try JSONParser.parse(feature.standardOutput)
        #expect(json["type"] == .string("Feature"))
        guard case .array(let coordinates)? = json["geometry"]?["coordinates"] else {
            Issue.record("no LineString in \(feature.standardOutput)")
            return
        }
        #expect(coordinates.count >= 4, "the way round passes the block's far corners")
        #expect(coordinates.contains(.array([.number(0.001), .number(-0.001)])))

        let late = try await CommandRunner.run(["route", "--graph", graph, "--from", "0.001,0.0", "--to", "0.0,0.0",
                                          "--depart", "2026-11-23T03:00:00+01:00", "--arrive-by", "2026-11-23T03:05:00+01:00",
                                          "--expected-wait", "290"])
        #expect(late.status == 0)
        #expect(late.lines.contains("reachable: no"), "290 s wait + a drive of more than 10 s misses a 300 s deadline")
        #expect(late.standardError.contains("warning: a taxi called at 2026-11-23T03:00:00+0100 arrives"))
        let onTime = try await CommandRunner.run(["route", "--graph", graph, "--from", "0.001,0.0", "--to", "0.0,0.0",
                                            "--depart", "2026-11-23T03:00:00+01:00", "--arrive-by", "2026-11-23T03:15:00+01:00"])
        #expect(onTime.lines.contains("reachable: yes"))
        #expect(onTime.lines.contains { $0.hasPrefix("margin_s: ") })

        let far = try await CommandRunner.run(["route", "--graph", graph, "--from", "0.0,0.0", "--to", "1.0,1.0"])
        #expect(far.status == 1)
        #expect(far.standardError.contains("snapping limit"))
        let missing = try await CommandRunner.run(["route", "--graph", "/nonexistent.graph", "--from", "0,0", "--to", "1,1"])
        #expect(missing.status == 2)
    }

    /// A pickup 3 m from the one-way street and 5 m from the two-way one at
    /// the block's corner: with the default snap radius it starts on the two-way
    /// street and drives straight down; `--snap-radius 0` goes round the block.
    @Test func etaStartsOnTheFastestRoadWithinTheSnapRadius() async throws {
        let graph = try await Self.blockGraph()
        let trip = "0.00005,-0.00003,0.0,-0.0008\n"
        let candidates = try await CommandRunner.run(["eta", "--graph", graph], input: trip)
        let nearestOnly = try await CommandRunner.run(["eta", "--graph", graph, "--snap-radius", "0"], input: trip)
        let straight = candidates.standardOutput.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        let round = nearestOnly.standardOutput.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        #expect(straight.count == 2 && round.count == 2)
        #expect(abs(straight[1] - 85.6) < 2, "down the two-way street: \(candidates.standardOutput)")
        #expect(abs(round[1] - 350) < 3, "along the one-way street and round the block: \(nearestOnly.standardOutput)")
        let negative = try await CommandRunner.run(["eta", "--graph", graph, "--snap-radius", "-1"], input: trip)
        #expect(negative.status == 2)
        #expect(negative.standardError.contains("--snap-radius"))
    }

    @Test func calibrateWritesAProfileThatEtaReads() async throws {
        let graph = try await Self.blockGraph()
        let folder = URL(fileURLWithPath: graph).deletingLastPathComponent()
        var csv = "id,pickup_datetime,pickup_longitude,pickup_latitude,dropoff_longitude,dropoff_latitude,trip_duration\n"
        for day in 1...9 {
            csv += "t\(day),2026-11-0\(day) 08:15:00,0.0,0.0,0.001,0.0,\(60 + day)\n"
            csv += "u\(day),2026-11-0\(day) 22:40:00,0.001,0.0,0.0,0.0,\(120 + day)\n"
        }
        let trips = folder.appendingPathComponent("trips.csv")
        try csv.write(to: trips, atomically: true, encoding: .utf8)
        let profile = folder.appendingPathComponent("profile.csv").path
        let result = try await CommandRunner.run(["graph", "calibrate", "--graph", graph, "--trips", trips.path, "-o", profile])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.lines.contains("trips: 18 routed, 0 unroutable"))
        #expect(result.lines.contains { $0.hasPrefix("fitted profile: MdAPE ") })
        #expect(result.lines.contains { $0.hasPrefix("held out (fit on every other trip, scored on the rest): ") })
        let eta = try await CommandRunner.run(["eta", "--graph", graph, "--speed-profile", profile],
                                        input: "0.0,0.0,0.001,0.0,2026-11-02T08:15:00+01:00\n")
        let seconds = Double(eta.standardOutput.split(separator: ",").first ?? "") ?? 0
        #expect(seconds > 50 && seconds < 80, "the fitted profile predicts about a minute: \(eta.standardOutput)")

        let missing = try await CommandRunner.run(["graph", "calibrate", "--graph", graph, "--trips", "/nonexistent.csv", "-o", profile])
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("/nonexistent.csv"))
    }
}
