import Foundation
import GeoKit
import JSONKit
import Testing

/// `mytaxi zones publish` and `zones diff --taxis` against a running `mytaxi serve`.
@Suite(.serialized, .timeLimit(.minutes(20))) struct ZonePublishCommandTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("mytaxi-publish-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try "device_id,taxi_id\nLINE-1,TX1\n".write(to: directory.appendingPathComponent("devices.csv"), atomically: true, encoding: .utf8)
    }

    private func startService() async throws -> ServiceProcess {
        try await ServiceProcess(
            arguments: ["--zones", CommandRunner.packageRoot.appendingPathComponent("Zones/manhattan/zones.geojson").path,
                        "--devices", "devices.csv", "--data-dir", "data", "--http-port", "0", "--line-port", "0",
                        "--nmea-port", "off", "--osmand-port", "off", "--teltonika-port", "off", "--gt06-port", "off"],
            directory: directory, expectedListeners: ["line/tcp", "http"])
    }

    /// A valid file is stored and made active; the service's version list says so.
    @Test func publishStoresAndActivates() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let service = try await startService()
        defer { service.stop() }
        let url = "http://127.0.0.1:\(service.ports["http"]!)"
        let result = try await CommandRunner.run(["zones", "publish", "Zones/monaco/zones.geojson", "--to", url,
                                            "--token-stdin", "--comment", "Monaco"], input: try await service.administratorSession() + "\n")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.isEmpty, "no warning: the token is not on the command line")
        #expect(result.lines == ["Zones/monaco/zones.geojson: stored as version 1, now active"])
        let versions = try JSONParser.parse(try await service.get("/v1/zone-sets").body)
        guard case .array(let list)? = versions["versions"] else { Issue.record("no versions"); return }
        #expect(list.first?["active"] == .bool(true))
        #expect(list.first?["zoneCount"] == .number(9))
    }

    /// The service's problems are printed by feature, nothing is stored, exit 1;
    /// a wrong token is a misuse, exit 2, and reaches the service even when
    /// it begins with a dash, as one token in 64 does; `--token` still works,
    /// with a warning that the process list shows it; none at all is a misuse.
    @Test func publishPrintsTheProblemsTheServiceFound() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let service = try await startService()
        defer { service.stop() }
        let url = "http://127.0.0.1:\(service.ports["http"]!)"
        let refused = try await CommandRunner.run(["zones", "publish", "Tests/ZonesTests/Fixtures/overlap.geojson", "--to", url,
                                             "--token", try await service.administratorSession()])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("the service refused it, 1 problem(s):"))
        #expect(refused.standardError.contains("a: overlaps zone b"))
        #expect(refused.standardError.contains("warning: --token shows the token in the process list"))
        let unauthorised = try await CommandRunner.run(["zones", "publish", "Zones/monaco/zones.geojson", "--to", url, "--token-stdin"], input: "-wrong\n")
        #expect(unauthorised.status == 2)
        #expect(unauthorised.standardError.contains("the service answered 401"))
        let none = try await CommandRunner.run(["zones", "publish", "Zones/monaco/zones.geojson", "--to", url])
        #expect(none.status != 0)
        #expect(none.standardError.contains("--token-stdin or MYTAXI_TOKEN"))
    }

    /// With the live fleet: the taxi in Midtown would leave every zone of Monaco's set.
    @Test func diffCountsTheLiveTaxisThatWouldChangeZone() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let service = try await startService()
        defer { service.stop() }
        let client = try ServeCommandTests.TCPClient(port: service.ports["line/tcp"]!)
        let now = Int(Date().timeIntervalSince1970) - 5
        client.send(Array("MT1,LINE-1,1,\(now),40.7580,-73.9855,10,0,A\n".utf8))
        #expect(client.receive(atLeast: 6).bytes == Array("ACK,1\n".utf8))
        let result = try await CommandRunner.run(["zones", "diff", "Zones/manhattan/zones.geojson", "Zones/monaco/zones.geojson",
                                            "--taxis", "http://127.0.0.1:\(service.ports["http"]!)"],
                                           environment: ["MYTAXI_TOKEN": try await service.administratorSession()])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.lines.suffix(2) == ["1 of 1 taxis would change zone", "TX1: 230 → outside"])
    }
}
