import Foundation
import GeoKit
import TestSupport
import Testing

/// `mytaxi serve` with device secrets and a source allow-list, end to end
/// over loopback: knowing a device id no longer moves its taxi over the
/// line protocol or OsmAnd, one connection speaks for one device, and the
/// refusals are counted by reason in `/metrics`.
@Suite(.serialized, .timeLimit(.minutes(20))) final class DeviceSecretServeTests: Sendable {
    typealias TCPClient = ServeCommandTests.TCPClient
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("mytaxi-secrets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try """
            device_id,taxi_id,secret
            LINE-1,TX1,s3cret-LINE-1
            LINE-2,TX2
            NMEA-1,TX3,
            902064,TX4,s3cret-902064
            """
            .write(to: directory.appendingPathComponent("devices.csv"), atomically: true, encoding: .utf8)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    static let zones = CommandRunner.packageRoot.appendingPathComponent("Zones/manhattan/zones.geojson").path

    func live(_ service: ServiceProcess, taxi: String) async throws -> Bool {
        try await service.get("/v1/taxis/\(taxi)").status == 200
    }

    func metrics(_ service: ServiceProcess) async throws -> String {
        String(decoding: try await service.get("/metrics").body, as: UTF8.self)
    }

    /// The review's finding, replayed: `MT1,<someone else's id>,...` over
    /// `nc` no longer moves that taxi when secrets are required.
    @Test func requiringSecretsRefusesWhoeverKnowsOnlyADeviceId() async throws {
        let service = try await ServiceProcess(
            arguments: [
                "--zones", Self.zones, "--devices", "devices.csv", "--data-dir", "data", "--http-port", "0",
                "--line-port", "0", "--nmea-port", "0", "--osmand-port", "0", "--teltonika-port", "off", "--gt06-port", "off",
                "--require-device-secret",
            ],
            directory: directory, expectedListeners: ["line/tcp", "nmea/tcp", "osmand/http", "http"])
        defer { service.stop() }
        let now = Int(Date().timeIntervalSince1970) - 30
        let port = service.ports["line/tcp"]!

        // The terminal logs in with its secret: its fixes are stored.
        let terminal = try TCPClient(port: port)
        terminal.send(Array("MT1,LINE-1,1,LOGIN,s3cret-LINE-1\nMT1,LINE-1,2,\(now),40.7589,-73.9851,20,270,A\n".utf8))
        #expect(String(decoding: terminal.receive(atLeast: 12).bytes, as: UTF8.self) == "ACK,1\nACK,2\n")
        #expect(try await live(service, taxi: "TX1"))
        // Another device's line on its connection is refused (acknowledged, as refused fixes are).
        terminal.send(Array("MT1,LINE-2,3,\(now),40.7812,-73.9665,10,90,A\n".utf8))
        #expect(String(decoding: terminal.receive(atLeast: 6).bytes, as: UTF8.self) == "ACK,3\n")

        // Someone who knows only a device id: the finding's line, for a device without a secret.
        let stranger = try TCPClient(port: port)
        stranger.send(Array("MT1,LINE-2,12,\(now),40.7812,-73.9665,10,90,A\n".utf8))
        #expect(String(decoding: stranger.receive(atLeast: 7).bytes, as: UTF8.self) == "ACK,12\n")
        #expect(try await !live(service, taxi: "TX2"), "no taxi in Central Park")
        // ...or who guesses a secret: closed without a word.
        let guesser = try TCPClient(port: port)
        guesser.send(Array("MT1,LINE-1,1,LOGIN,s3cret-LINE-2\nMT1,LINE-1,2,\(now + 1),40.7812,-73.9665,10,90,A\n".utf8))
        let refused = guesser.receive(atLeast: 1)
        #expect(refused.bytes.isEmpty && refused.closed)

        // NMEA cannot carry a secret: a device without one is still accepted by its id.
        let nmea = try TCPClient(port: service.ports["nmea/tcp"]!)
        nmea.send(Array("NMEA-1\r\n".utf8) + Array(ServeCommandTests.rmc(seconds: now).utf8))
        try await waitUntil("TX3's NMEA fix in the live index") { try await self.live(service, taxi: "TX3") }

        // OsmAnd: the key is the secret.
        let osmand = service.ports["osmand/http"]!
        let query = "/?id=902064&lat=40.7128&lon=-74.0060&timestamp=\(now)"
        #expect(try await service.get(query + "&key=guess", port: osmand).status == 401)
        #expect(try await service.get(query, port: osmand).status == 401)
        #expect(try await !live(service, taxi: "TX4"))
        #expect(try await service.get(query + "&key=s3cret-902064", port: osmand).status == 200)
        #expect(try await live(service, taxi: "TX4"))

        let metrics = try await metrics(service)
        for series in [
            #"mytaxi_fixes_rejected_total{protocol="line",reason="device_mismatch"} 1"#,
            #"mytaxi_fixes_rejected_total{protocol="line",reason="secret_not_registered"} 1"#,
            #"mytaxi_fixes_rejected_total{protocol="line",reason="bad_secret"} 1"#,
            #"mytaxi_fixes_rejected_total{protocol="osmand",reason="bad_secret"} 1"#,
            #"mytaxi_fixes_rejected_total{protocol="osmand",reason="missing_secret"} 1"#,
        ] {
            #expect(metrics.contains(series), "\(series) missing from /metrics")
        }
        #expect(!metrics.contains("s3cret"), "no secret in /metrics")
        let log = try service.log()
        #expect(!log.contains("s3cret"), "no secret in the log")
        #expect(log.contains("2 of 4 devices have no secret"), "the operator is told which devices will be refused")
    }

    /// The config file's `ingest-allow` and `require-device-secret`: the
    /// terminals' TCP and UDP listeners turn away loopback when it is not
    /// allowed, counted; OsmAnd, for phones on any network, is not restricted.
    @Test func theConfigFileGivesTheAllowListAndTheRequirement() async throws {
        let config = """
            {"zones": "\(Self.zones)", "devices": "devices.csv", "data-dir": "data", "http-port": 0, "line-port": 0,
             "nmea-port": "off", "osmand-port": 0, "teltonika-port": "off", "gt06-port": "off",
             "ingest-allow": "10.0.0.0/8, 2001:db8::/32", "require-device-secret": true}
            """
        try config.write(to: directory.appendingPathComponent("mytaxi.json"), atomically: true, encoding: .utf8)
        let service = try await ServiceProcess(
            arguments: ["--config", "mytaxi.json", "--graph", try DemoGraph.path()], directory: directory,
            expectedListeners: ["line/tcp", "line/udp", "osmand/http", "http"])
        defer { service.stop() }
        let now = Int(Date().timeIntervalSince1970) - 30

        let terminal = try TCPClient(port: service.ports["line/tcp"]!)
        terminal.send(Array("MT1,LINE-1,1,LOGIN,s3cret-LINE-1\n".utf8))
        let refused = terminal.receive(atLeast: 1)
        #expect(refused.bytes.isEmpty && refused.closed, "closed on accept, never read")
        #expect(ServeCommandTests.udpExchange(
            port: service.ports["line/udp"]!, payload: Array("MT1,LINE-1,1,LOGIN,s3cret-LINE-1\n".utf8)).isEmpty)
        let query = "/?id=902064&lat=40.7128&lon=-74.0060&timestamp=\(now)&key=s3cret-902064"
        #expect(try await service.get(query, port: service.ports["osmand/http"]!).status == 200)

        let metrics = try await metrics(service)
        #expect(metrics.contains(#"mytaxi_connections_refused_total{protocol="line",reason="not_allowed"} 1"#), "\(metrics)")
        #expect(metrics.contains(#"mytaxi_datagrams_dropped_total{protocol="line",reason="not_allowed"} 1"#))
        #expect(metrics.contains(#"mytaxi_frames_received_total{protocol="line"} 0"#), "nothing from loopback was decoded")
        #expect(try service.log().contains("from outside --ingest-allow"))
    }

    /// A bad block, in a flag or the config file, stops `serve` before it
    /// starts, naming the block; so does a switch that is not true or false.
    @Test func aBadAllowListOrSwitchIsNamed() async throws {
        let required = ["serve", "--zones", "z", "--devices", "d", "--data-dir", "x", "--graph", "g"]
        let flag = try await CommandRunner.run(required + ["--ingest-allow", "10.0.0.0/8,10.1.2.3/8"])
        #expect(flag.status == 2)
        #expect(flag.standardError.contains("--ingest-allow"), "\(flag.standardError)")
        #expect(flag.standardError.contains("'10.1.2.3/8' is not a CIDR block"), "\(flag.standardError)")
        try #"{"zones": "z", "devices": "d", "data-dir": "x", "graph": "g", "ingest-allow": "fe80::/zz"}"#
            .write(to: directory.appendingPathComponent("allow.json"), atomically: true, encoding: .utf8)
        let file = try await CommandRunner.run(["serve", "--config", directory.appendingPathComponent("allow.json").path])
        #expect(file.status == 2)
        #expect(file.standardError.contains("'fe80::/zz' is not a CIDR block"), "\(file.standardError)")
        try #"{"zones": "z", "devices": "d", "data-dir": "x", "graph": "g", "require-device-secret": "yes"}"#
            .write(to: directory.appendingPathComponent("switch.json"), atomically: true, encoding: .utf8)
        let badSwitch = try await CommandRunner.run(["serve", "--config", directory.appendingPathComponent("switch.json").path])
        #expect(badSwitch.status == 2)
        #expect(badSwitch.standardError.contains(#""require-device-secret" must be true or false"#), "\(badSwitch.standardError)")
    }
}
