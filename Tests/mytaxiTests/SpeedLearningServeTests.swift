import Foundation
import GeoKit
import Routing
import TestSupport
import Testing

/// SPEC R4 with the real binary: a taxi driving slower than the speed
/// profile says is learned from its fixes; the ETAs say so and where their
/// speeds came from; the map's road speeds show it; a restart keeps it;
/// `graph learned-profile export` writes it.
@Suite(.serialized, .timeLimit(.minutes(20))) struct SpeedLearningServeTests {
    static let zones = CommandRunner.packageRoot.appendingPathComponent("Zones/manhattan/zones.geojson").path
    static let from = Coordinate(longitude: -73.9911, latitude: 40.7505)
    static let to = Coordinate(longitude: -73.9780, latitude: 40.7545)

    static func arguments() -> [String] {
        [
            "--zones", zones, "--devices", "devices.csv", "--data-dir", "data", "--http-port", "0",
            "--line-port", "0", "--nmea-port", "off", "--osmand-port", "off", "--teltonika-port", "off", "--gt06-port", "off",
            "--learned-speeds-every", "1", "--stale-after", "86400",
        ]
    }

    /// The ETA of the test trip leaving at `depart`: its duration and where its speeds came from.
    static func eta(_ service: ServiceProcess, depart: Date) async throws -> (seconds: Double, speeds: String) {
        let query = "from=\(from.longitude),\(from.latitude)&to=\(to.longitude),\(to.latitude)&depart=\(ISO8601DateFormatter().string(from: depart))"
        let answer = try await service.get("/v1/eta?\(query)")
        let body = try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any], "\(answer.status)")
        return (try #require(body["durationS"] as? Double), try #require(body["speeds"] as? String))
    }

    @Test func aDriveSlowerThanTheProfileIsLearnedShownKeptAcrossARestartAndExported() async throws {
        let directory = try DurabilityTests.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try "device_id,taxi_id\nLINE-1,TX1\n".write(to: directory.appendingPathComponent("devices.csv"), atomically: true, encoding: .utf8)
        let graph = try await DemoGraph.path()
        let router = try RoutingGraph.router(for: GraphFile.read(from: URL(fileURLWithPath: graph)))
        let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 20 * 60).rounded(.down))
        let route = try router.timedRoute(from: Self.from, to: Self.to, depart: start)
        // The taxi drives the trip three times slower than the profile, a fix every 30 s.
        let slowdown = 3.0
        var frames = "", sequence = 0
        for elapsed in stride(from: 0.0, through: route.durationSeconds * slowdown, by: 30) {
            let place = route.position(after: elapsed / slowdown).coordinate
            sequence += 1
            frames += "MT1,LINE-1,\(sequence),\(Int(start.timeIntervalSince1970 + elapsed)),\(place.latitude),\(place.longitude),12,0,A\n"
        }
        #expect(sequence >= 10, "a drive of \(route.durationSeconds) s gives too few fixes")
        let middle = start.addingTimeInterval(route.durationSeconds * slowdown / 2)

        let service = try await ServiceProcess(arguments: Self.arguments(), directory: directory, expectedListeners: ["line/tcp", "http"])
        let before = try await Self.eta(service, depart: middle)
        #expect(before.speeds == "profile")
        let terminal = try ServeCommandTests.TCPClient(port: service.ports["line/tcp"]!)
        terminal.send(Array(frames.utf8))
        _ = terminal.receive(atLeast: sequence * 6)
        let learned = try await waitUntil("the trip's ETA on learned speeds") { try await Self.eta(service, depart: middle) } satisfies: {
            $0.speeds != "profile" && $0.seconds > before.seconds * 1.5
        }
        #expect(learned.speeds == "live", "the drive is within 15 minutes of the fleet's newest fix")
        let metrics = String(decoding: try await service.get("/metrics").body, as: UTF8.self)
        #expect(metrics.contains("mytaxi_speed_fixes_matched_total"))
        let roads = try await JSONSerialization.jsonObject(with: service.get("/v1/roads/speeds").body) as? [String: Any]
        let features = try #require(roads?["features"] as? [[String: Any]])
        #expect(features.contains { (($0["properties"] as? [String: Any])?["ratio"] as? Double ?? 1) < 0.7 },
                "the map shows the streets driven slower than the profile")
        service.stop()

        let restarted = try await ServiceProcess(arguments: Self.arguments(), directory: directory, expectedListeners: ["line/tcp", "http"])
        let kept = try await Self.eta(restarted, depart: middle)
        #expect(kept.speeds == "learned", "the weekly table came back; the live layer did not")
        #expect(kept.seconds > before.seconds * 1.5, "before \(before.seconds) s, after the restart \(kept.seconds) s")
        restarted.stop()

        let output = directory.appendingPathComponent("learned.csv").path
        let export = try await CommandRunner.run([
            "graph", "learned-profile", "export", "--graph", graph, "--data-dir", directory.appendingPathComponent("data").path, "-o", output,
        ])
        #expect(export.status == 0, "\(export.standardError)")
        let profile = try SpeedProfile(parsing: String(contentsOfFile: output, encoding: .utf8))
        let hour = SpeedProfile.hourOfWeek(middle, in: router.timeZone)
        #expect(RoadClass.allCases.contains { profile.factor($0, hourOfWeek: hour) < SpeedProfile.denseCity.factor($0, hourOfWeek: hour) },
                "some class is slower than the built-in profile in the hour driven")
    }
}
