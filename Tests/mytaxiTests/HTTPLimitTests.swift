import Foundation
import TestSupport
import Testing

/// What a slow or greedy HTTP client can hold of `mytaxi serve` (the API and
/// the OsmAnd listener), and which address each side listens on.
@Suite(.serialized, .timeLimit(.minutes(20))) final class HTTPLimitTests: Sendable {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("mytaxi-http-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try "device_id,taxi_id\nphone1,TX1\n".write(to: directory.appendingPathComponent("devices.csv"), atomically: true, encoding: .utf8)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    func serve(_ extra: [String], listeners: Set<String> = ["http", "osmand/http"]) async throws -> ServiceProcess {
        try await ServiceProcess(
            arguments: [
                "--zones", CommandRunner.packageRoot.appendingPathComponent("Zones/monaco/zones.geojson").path,
                "--devices", "devices.csv", "--data-dir", "data", "--http-port", "0", "--line-port", "off",
                "--nmea-port", "off", "--osmand-port", "0", "--teltonika-port", "off", "--gt06-port", "off",
            ] + extra,
            directory: directory, expectedListeners: listeners)
    }

    /// Every TCP and UDP listener off on purpose and only OsmAnd on (a
    /// fleet of phones): the service is healthy (issue 19: it was 503).
    @Test func onlyTheOsmAndListenerOnIsHealthy() async throws {
        let service = try await serve([])
        defer { service.stop() }
        let health = try await service.get("/healthz")
        #expect(health.status == 200, "\(String(decoding: health.body, as: UTF8.self))")
    }

    /// A slowloris client drips a request header a byte at a time, each
    /// byte well inside any idle timeout: the request deadline cuts it off.
    @Test(arguments: ["http", "osmand/http"])
    func aSlowHeaderIsCutOff(listener: String) async throws {
        let service = try await serve(["--http-timeout", "1"])
        defer { service.stop() }
        let client = try ServeCommandTests.TCPClient(port: try #require(service.ports[listener]))
        let started = Date()
        var closed = false
        for byte in "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaa".utf8 {
            client.send([byte])
            try await Task.sleep(for: .milliseconds(200))
            if Date().timeIntervalSince(started) > 1.5 {
                closed = client.receive(atLeast: 1).closed
                break
            }
        }
        #expect(closed, "the connection is closed once the 1 s request deadline passed")
        // A normal request on a fresh connection still works.
        #expect(try await service.get("/healthz").status == 200)
    }

    /// A first request whose line or head is too long to be an API request
    /// is answered 414 or 431 at once (it was left waiting for the deadline,
    /// then dropped), and nothing of it is logged as an error.
    @Test func anOversizedFirstRequestIsAnswered414Or431() async throws {
        let service = try await serve([])
        defer { service.stop() }
        let port = try #require(service.ports["http"])
        let huge = String(repeating: "a", count: 100_000)
        for (request, status) in [
            ("GET /v1/push?token=\(huge) HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n", "414 URI Too Long"),
            ("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: \(huge)\r\n\r\n", "431 Request Header Fields Too Large"),
        ] {
            let client = try ServeCommandTests.TCPClient(port: port)
            client.send(Array(request.utf8))
            let received = client.receive(atLeast: 1 << 20)
            let answer = String(decoding: received.bytes, as: UTF8.self)
            #expect(answer.hasPrefix("HTTP/1.1 \(status)\r\n"), "\(answer.prefix(200))")
            #expect(answer.contains("application/problem+json") && answer.contains("bytes"), "the problem says what is too long")
            #expect(received.closed)
        }
        #expect(try await service.get("/healthz").status == 200)
        let log = try service.log()
        #expect(!log.contains(" error "), "refusals are not errors: \(log)")
    }

    /// Clients that open connections and send nothing hold them only until
    /// the request deadline, on both servers; a normal request still works.
    @Test(arguments: ["http", "osmand/http"])
    func silentConnectionsAreClosedAtTheDeadline(listener: String) async throws {
        let service = try await serve(["--http-timeout", "1"])
        defer { service.stop() }
        let port = try #require(service.ports[listener])
        let silent = try (0..<5).map { _ in try ServeCommandTests.TCPClient(port: port) }
        let opened = Date()
        for client in silent {
            #expect(client.receive(atLeast: 1).closed, "closed, not left open, within the 3 s read timeout")
        }
        #expect(Date().timeIntervalSince(opened) < 2.5, "closed near the 1 s deadline")
        #expect(try await service.get("/healthz").status == 200)
        let log = try service.log()
        #expect(!log.contains(" error "), "a connection cut at its deadline is no error: \(log)")
    }

    /// Beyond --http-max-connections, a new connection waits (it is not
    /// served) until one of the others closes.
    @Test func connectionsBeyondTheLimitWait() async throws {
        let service = try await serve(["--http-max-connections", "2", "--http-timeout", "30"])
        defer { service.stop() }
        let port = try #require(service.ports["http"])
        let held = try (0..<2).map { _ in try ServeCommandTests.TCPClient(port: port) }
        for client in held {
            // Answered, so surely accepted before the third connects; the connection stays open.
            client.send(Array("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            #expect(String(decoding: client.receive(atLeast: 12).bytes, as: UTF8.self).hasPrefix("HTTP/1.1 200"))
        }
        let third = try ServeCommandTests.TCPClient(port: port)
        third.send(Array("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(third.receive(atLeast: 12).bytes.isEmpty, "not served while two connections are open")
        held[0].hangUp()
        let answer = String(decoding: third.receive(atLeast: 12).bytes, as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 200"), "served once a place is free: \(answer)")
    }

    /// --ingest-bind puts the terminals' listeners on their own address and
    /// leaves the API on --bind.
    @Test func ingestListensOnItsOwnAddress() async throws {
        let service = try await serve(["--bind", "127.0.0.1", "--ingest-bind", "127.0.0.2"])
        defer { service.stop() }
        let osmand = try #require(service.ports["osmand/http"])
        #expect(try await service.get("/healthz").status == 200, "the API on 127.0.0.1")
        #expect(try await service.get("/?id=phone1&lat=43.73&lon=7.42", port: osmand).status == 0, "OsmAnd is not on 127.0.0.1")
        let url = try #require(URL(string: "http://127.0.0.2:\(osmand)/?id=phone1&lat=43.73&lon=7.42"))
        let status = await ServiceProcess.get(url).status
        #expect(status == 200, "OsmAnd answers on 127.0.0.2")
    }

    /// --metrics-bind serves /metrics on its own listener, so that an API
    /// facing the public does not show it.
    @Test func metricsListenApartWhenAsked() async throws {
        let service = try await serve(["--metrics-bind", "127.0.0.1:0"], listeners: ["http", "osmand/http", "metrics"])
        defer { service.stop() }
        let metrics = try #require(service.ports["metrics"])
        #expect(try await service.get("/metrics").status == 404, "not on the API's port")
        let apart = try await service.get("/metrics", port: metrics)
        #expect(apart.status == 200)
        #expect(String(decoding: apart.body, as: UTF8.self).contains("mytaxi_"))
        #expect(try await service.get("/healthz").status == 200)
    }

    /// A stop with `--drain-seconds` first turns `/healthz` to 503
    /// ("draining") while the API and the terminals' listeners still serve,
    /// so that a balancer moves clients off before anything closes; then the
    /// service stops cleanly.
    @Test func aStopDrainsWhileStillServing() async throws {
        let service = try await serve(["--drain-seconds", "20"])
        defer { service.stop() }
        let osmand = OsmAndPhones(port: try #require(service.ports["osmand/http"]), phones: ["phone1"], firstSecond: 0)
        #expect(try await service.get("/healthz").status == 200)

        service.process.terminate()
        let health = try await waitUntil("/healthz answering 503 once the stop began", { try await service.get("/healthz") }) {
            $0.status == 503
        }
        #expect(String(decoding: health.body, as: UTF8.self).contains("draining"))
        #expect(service.process.isRunning)
        #expect(try await service.get("/openapi.json").status == 200, "the API still answers while draining")
        let now = Int(Date().timeIntervalSince1970)
        #expect(osmand.post("id=phone1&lat=43.73&lon=7.42&timestamp=\(now)") == 200, "terminals are still served while draining")
        try await waitUntil("the service stopping after its drain", within: .seconds(90)) { !service.process.isRunning }
        #expect(service.process.terminationStatus == 0)
    }
}
