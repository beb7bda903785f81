import Foundation
import Testing

/// The `/v1/push` WebSocket of a running `mytaxi serve`, from a raw TCP
/// client: a refused upgrade says why with its status, and a client that
/// ignores the close handshake cannot hold a graceful stop open.
@Suite(.serialized, .timeLimit(.minutes(20))) final class PushSocketServeTests: Sendable {
    let directory: URL
    static let password = "push-pass-1!"

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("mytaxi-push-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try "device_id,taxi_id\nphone1,TX1\n".write(to: directory.appendingPathComponent("devices.csv"), atomically: true, encoding: .utf8)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    func serve() async throws -> ServiceProcess {
        try await ServiceProcess(
            arguments: [
                "--zones", CommandRunner.packageRoot.appendingPathComponent("Zones/monaco/zones.geojson").path,
                "--devices", "devices.csv", "--data-dir", "data", "--http-port", "0", "--line-port", "off",
                "--nmea-port", "off", "--osmand-port", "off", "--teltonika-port", "off", "--gt06-port", "off",
            ],
            directory: directory, expectedListeners: ["http"])
    }

    /// A WebSocket upgrade of `/v1/push` with `token`, on a new connection.
    static func upgrade(port: Int, token: String) throws -> ServeCommandTests.TCPClient {
        let client = try ServeCommandTests.TCPClient(port: port)
        client.send(Array("""
            GET /v1/push?token=\(token) HTTP/1.1\r
            Host: 127.0.0.1\r
            Upgrade: websocket\r
            Connection: Upgrade\r
            Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r
            Sec-WebSocket-Version: 13\r
            \r

            """.utf8))
        return client
    }

    /// The token of a new account of `role` named `username`, made by the administrator.
    static func login(_ service: ServiceProcess, role: String, username: String) async throws -> String {
        let made = try await service.call(
            "POST", "/v1/accounts", token: try await service.administratorSession(),
            json: #"{"role": "\#(role)", "username": "\#(username)", "password": "\#(password)"}"#)
        #expect(made.status == 201, "\(String(decoding: made.body, as: UTF8.self))")
        let session = try await service.call("POST", "/v1/sessions", json: #"{"username": "\#(username)", "password": "\#(password)"}"#)
        return try #require((try JSONSerialization.jsonObject(with: session.body) as? [String: Any])?["token"] as? String)
    }

    /// Everything the service answers until it closes the connection.
    static func answer(of client: ServeCommandTests.TCPClient) -> String {
        String(decoding: client.receive(atLeast: 1 << 20).bytes, as: UTF8.self)
    }

    /// No token, a made-up one, a disabled account's, a role without a push
    /// socket: each refusal is the status and the problem the API gives any
    /// request (it was an empty 400 for all).
    @Test func aRefusedUpgradeAnswersWithItsStatusAndProblem() async throws {
        let service = try await serve()
        defer { service.stop() }
        let port = try #require(service.ports["http"])
        let planner = try await Self.login(service, role: "planner", username: "plan")
        let desk = try await Self.login(service, role: "dispatcher", username: "desk")
        let disabled = try await service.call("POST", "/v1/accounts/desk/disable", token: try await service.administratorSession())
        #expect(disabled.status == 200)

        for (token, status, words) in [
            ("", "401 Unauthorized", "bearer token"), ("made-up", "401 Unauthorized", "bearer token"),
            (desk, "401 Unauthorized", "bearer token"), (planner, "403 Forbidden", "planner"),
        ] {
            let answer = Self.answer(of: try Self.upgrade(port: port, token: token))
            #expect(answer.hasPrefix("HTTP/1.1 \(status)\r\n"), "token \(token.prefix(8)): \(answer.prefix(300))")
            #expect(answer.lowercased().contains("content-type: application/problem+json"))
            #expect(answer.lowercased().contains("connection: close"))
            #expect(answer.contains(words), "the problem says why: \(answer)")
        }
        let administrator = try Self.upgrade(port: port, token: try await service.administratorSession())
        let opened = String(decoding: administrator.receive(atLeast: 12).bytes, as: UTF8.self)
        #expect(opened.hasPrefix("HTTP/1.1 101"), "a working token still upgrades: \(opened)")
    }

    /// A client that never answers the close handshake (nor pings): a
    /// graceful stop tells it 1001 and is done within the close timeout.
    /// The stop waited for such clients for as long as they stayed.
    @Test func aStopClosesPushSocketsThatIgnoreTheCloseHandshake() async throws {
        let service = try await serve()
        let port = try #require(service.ports["http"])
        let token = try await service.administratorSession()
        let clients = try (0..<3).map { _ in try Self.upgrade(port: port, token: token) }
        let opened = clients.map { $0.receive(atLeast: 12).bytes }
        for bytes in opened { #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("HTTP/1.1 101")) }
        let stopping = Date()
        service.stop()
        let took = Date().timeIntervalSince(stopping)
        #expect(took < 12, "stopped in \(took) s: the 5 s close timeout, not the clients, bounds it")
        let received = opened[0] + clients[0].receive(atLeast: 1 << 20).bytes
        #expect(Self.closeCode(in: received) == 1001, "the socket was told the service is going away")
    }

    /// The status code of the first close frame in `bytes` (after the 101's
    /// head), nil when there is none.
    static func closeCode(in bytes: [UInt8]) -> Int? {
        guard let headEnd = (0..<max(0, bytes.count - 3)).first(where: { bytes[$0..<$0 + 4].elementsEqual([13, 10, 13, 10]) })
        else { return nil }
        var index = headEnd + 4
        while index + 2 <= bytes.count {
            let opcode = bytes[index] & 0x0F
            var length = Int(bytes[index + 1] & 0x7F)
            index += 2
            if length == 126, index + 2 <= bytes.count {
                length = Int(bytes[index]) << 8 | Int(bytes[index + 1])
                index += 2
            } else if length == 127, index + 8 <= bytes.count {
                length = bytes[index..<index + 8].reduce(0) { $0 << 8 | Int($1) }
                index += 8
            }
            if opcode == 8, length >= 2, index + 2 <= bytes.count { return Int(bytes[index]) << 8 | Int(bytes[index + 1]) }
            index += length
        }
        return nil
    }
}
