import Foundation
import HummingbirdWSClient
import Logging
import Synchronization
import TestSupport
import Testing

/// Issue 15's end-to-end test with the real binaries: `mytaxi serve`
/// hears a taxi over a wire protocol (OsmAnd), a passenger registers and
/// confirms the e-mail from the outbox, asks for a ride, the driver accepts
/// and reports the ride to its end, and every notification reaches both
/// over their `/v1/push` WebSockets; with the socket closed, the next one
/// waits for `GET /v1/notifications`.
@Suite(.serialized, .timeLimit(.minutes(20)), .tags(.realTimeWaits)) struct EndToEndRideTests {
    static let password = DispatchRestartTests.password
    static let pickup = (lon: -73.9855, lat: 40.7580)

    @Test func aRideFromRegistrationToCompletionIsToldOverThePushSockets() async throws {
        let directory = try DurabilityTests.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try "dev-T1,T1\n".write(to: directory.appendingPathComponent("devices.csv"), atomically: true, encoding: .utf8)
        let service = try await ServiceProcess(
            arguments: DispatchRestartTests.serveArguments(), directory: directory, expectedListeners: ["http", "osmand/http"])
        defer { service.stop() }
        let port = try #require(service.ports["http"])
        func fix(lat: Double, lon: Double) async throws {
            let url = URL(string: "http://127.0.0.1:\(service.ports["osmand/http"]!)/?id=dev-T1&lat=\(lat)&lon=\(lon)&timestamp=\(Int(Date().timeIntervalSince1970))")!
            #expect(await ServiceProcess.get(url).status == 200)
        }
        try await fix(lat: Self.pickup.lat + 0.002, lon: Self.pickup.lon)

        let admin = try await service.administratorSession()
        try await DispatchRestartTests.expect(
            service.call("POST", "/v1/accounts", token: admin, json: #"{"role": "driver", "username": "T1", "password": "\#(Self.password)"}"#), 201)
        try await DispatchRestartTests.expect(
            service.call("POST", "/v1/passengers", json: #"{"username": "ada", "email": "ada@example.com", "password": "\#(Self.password)"}"#), 202)
        let outbox = try await service.call("GET", "/v1/outbox", token: admin)
        let mail = try #require((try JSONSerialization.jsonObject(with: outbox.body) as? [[String: Any]])?.first?["body"] as? String)
        let confirmation = try #require(mail.split(separator: "\n").first { $0.hasPrefix("    ") }?.trimmingCharacters(in: .whitespaces))
        try await DispatchRestartTests.expect(service.call("POST", "/v1/passengers/confirmations", json: #"{"token": "\#(confirmation)"}"#), 200)
        let ada = try await DispatchRestartTests.login(service, "ada")
        let driver = try await DispatchRestartTests.login(service, "T1")

        let passengerSocket = PushSocket(port: port, token: ada)
        let driverSocket = PushSocket(port: port, token: driver)
        try await passengerSocket.expect("state", within: 60)
        try await driverSocket.expect("state", within: 60)
        try await DispatchRestartTests.expect(service.call("PUT", "/v1/driver/availability", token: driver, json: #"{"available": true}"#), 200)
        try await driverSocket.expect("taxi_joined_queue")

        let ride = try await service.call(
            "POST", "/v1/rides", token: ada, json: #"{"pickup": {"lon": \#(Self.pickup.lon), "lat": \#(Self.pickup.lat)}}"#)
        try DispatchRestartTests.expect(ride, 201)
        try await driverSocket.expect("offer")
        try await passengerSocket.expect("offer")
        try await DispatchRestartTests.expect(service.call("POST", "/v1/driver/offer/accept", token: driver), 200)
        try await passengerSocket.expect("taxi_assigned")
        let assigned = try #require(passengerSocket.messages.first { $0["kind"] as? String == "taxi_assigned" })
        #expect(assigned["taxiId"] as? String == "T1")
        #expect(assigned["etaS"] as? Double != nil, "the router's ETA")

        try await fix(lat: Self.pickup.lat, lon: Self.pickup.lon)
        try await DispatchRestartTests.expect(service.call("POST", "/v1/driver/ride/arrived", token: driver), 200)
        try await passengerSocket.expect("taxi_arrived")
        try await DispatchRestartTests.expect(service.call("POST", "/v1/driver/ride/aboard", token: driver), 200)
        try await DispatchRestartTests.expect(service.call("POST", "/v1/driver/ride/completed", token: driver), 200)
        try await passengerSocket.expect("ride_completed")
        try await driverSocket.expect("taxi_joined_queue")

        passengerSocket.task.cancel()
        driverSocket.task.cancel()
        _ = try? await passengerSocket.task.value
        try await DispatchRestartTests.expect(service.call("PUT", "/v1/driver/availability", token: driver, json: #"{"available": false}"#), 200)
        try await DispatchRestartTests.expect(
            service.call("POST", "/v1/rides", token: ada, json: #"{"pickup": {"lon": \#(Self.pickup.lon), "lat": \#(Self.pickup.lat)}}"#), 201)
        let fetched = try await service.call("GET", "/v1/notifications", token: ada)
        let kinds = ((try JSONSerialization.jsonObject(with: fetched.body) as? [String: Any])?["notifications"] as? [[String: Any]])?
            .compactMap { $0["kind"] as? String }
        #expect(kinds == ["queued"], "only what the closed socket missed: \(kinds ?? [])")
    }
}

/// A `/v1/push` WebSocket of the real service, with its messages as they arrive.
final class PushSocket: Sendable {
    /// The texts received, in order.
    final class Inbox: Sendable {
        let texts = Mutex<[String]>([])
        func append(_ text: String) { texts.withLock { $0.append(text) } }
    }

    private let inbox = Inbox()
    let task: Task<Void, any Error>

    init(port: Int, token: String) {
        let inbox = inbox
        task = Task {
            try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/v1/push?token=\(token)", logger: Logger(label: "e2e")) {
                inbound, _, _ in
                for try await message in inbound.messages(maxSize: 1 << 20) {
                    if case .text(let text) = message { inbox.append(text) }
                }
            }
        }
    }

    /// The messages so far, as JSON objects.
    var messages: [[String: Any]] {
        inbox.texts.withLock { $0 }.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    var kinds: [String] { messages.compactMap { $0["kind"] as? String } }

    /// Waits until a message of `kind` arrived, up to `seconds`: SPEC D7's
    /// 3 s with room for a machine busy with the other tests in parallel
    /// (the load driver measures the delay itself).
    func expect(_ kind: String, within seconds: Int64 = 15) async throws {
        try await waitUntil("a '\(kind)' message", within: .seconds(seconds)) { kinds } satisfies: { $0.contains(kind) }
    }
}

