import Accounts
import DispatchCore
import DispatchRuntime
import FixRecords
import Foundation
import GeoKit
import Hummingbird
import HummingbirdTesting
import HummingbirdWebSocket
import HummingbirdWSClient
import JSONKit
import Logging
import Storage
import Synchronization
import Testing
import TestSupport
@testable import API

/// SPEC D7 over the API: a user's notifications fetched once with
/// `GET /v1/notifications`, pushed over the `/v1/push` WebSocket with the
/// state first and the missed ones next, and the dispatchers' live board.
@Suite(.timeLimit(.minutes(20)), .tags(.realTimeWaits)) struct NotificationsAPITests {
    /// T1 logged in and available in zone 161, and pat's ride offered to it.
    private func offeredRide(_ harness: APIHarness, _ client: any TestClientProtocol) async throws -> (driver: String, ride: String) {
        let driver = try await harness.token(.driver)
        try await harness.dispatcher.execute(.login("T1"))
        #expect(try await client.call(.put, "/v1/driver/availability", token: driver, json: #"{"available": true}"#).status == .ok)
        let asked = try await client.call(.post, "/v1/rides", token: try await harness.token(.passenger), json: RideAPITests.pickup)
        return (driver, try #require(asked["rideId"]))
    }

    @Test func aUsersNotificationsAreFetchedOnce() async throws {
        let harness = try await APIHarness()
        try await harness.report("T1")
        let passenger = try await harness.token(.passenger)
        try await harness.test { client in
            let (driver, ride) = try await offeredRide(harness, client)
            let told = try await client.call(.get, "/v1/notifications", token: driver)
            #expect(told.status == .ok)
            let kinds = try told.list("notifications").map { $0["kind"]?.scalarText }
            #expect(kinds == ["taxi_joined_queue", "offer"])
            let offer = try told.list("notifications")[1]
            #expect(offer["rideId"]?.scalarText == ride)
            #expect(offer["expiresAt"] != nil)
            let ids = try told.list("notifications").map { notification -> Double? in
                guard case .number(let id)? = notification["id"] else { return nil }
                return id
            }
            #expect(ids.allSatisfy { $0 != nil && $0 == $0!.rounded() }, "ids are whole numbers: \(ids)")
            #expect(ids == ids.sorted { ($0 ?? 0) < ($1 ?? 0) } && Set(ids).count == ids.count, "ids grow: \(ids)")
            #expect(try await client.call(.get, "/v1/notifications", token: driver).list("notifications").isEmpty, "handed over once")

            #expect(try await client.call(.get, "/v1/notifications?limit=1", token: passenger).list("notifications").count == 1)
            #expect(try await client.call(.get, "/v1/notifications?limit=0", token: passenger).status == .badRequest)
            #expect(try await client.call(.get, "/v1/notifications", token: try await harness.token(.planner)).status == .forbidden)
            #expect(try await client.call(.get, "/v1/notifications").status == .unauthorized)
        }
    }

    @Test func pushWithoutAWebSocketUpgradeAnswers426() async throws {
        let harness = try await APIHarness()
        try await harness.test { client in
            let answer = try await client.call(.get, "/v1/push", token: try await harness.token(.passenger))
            #expect(answer.status == .upgradeRequired)
            #expect(answer["detail"]?.contains("WebSocket") == true)
            #expect(try await client.call(.get, "/v1/push", token: try await harness.token(.planner)).status == .forbidden)
        }
    }

    /// A driver's socket starts with the taxi's state and what it missed,
    /// then gets the offer as it is made; the board gets the fleet first.
    @Test func aSocketGetsItsStateThenWhatItMissedThenEachNewNotice() async throws {
        let harness = try await APIHarness()
        try await harness.report("T1")
        let hub = Task { try await harness.server.notificationHub.run() }
        defer { hub.cancel() }
        let app = Application(
            router: harness.server.router(),
            server: .http1WebSocketUpgrade(webSocketRouter: harness.server.webSocketRouter()))
        let driver = try await harness.token(.driver)
        try await harness.dispatcher.execute(.login("T1"))
        try await app.test(.live) { client in
            #expect(try await client.call(.put, "/v1/driver/availability", token: driver, json: #"{"available": true}"#).status == .ok)
            let port = try #require(client.port)
            let received = try await pushMessages(port: port, token: driver) { value, _ in
                if value["kind"]?.scalarText == "taxi_joined_queue" {
                    _ = try await client.call(.post, "/v1/rides", token: try await harness.token(.passenger), json: RideAPITests.pickup)
                }
                return value["kind"]?.scalarText == "offer"
            }
            let kinds = received.map { $0["kind"]?.scalarText }
            #expect(kinds == ["state", "taxi_joined_queue", "offer"])
            #expect(received.first?["driver"]?["state"]?.scalarText == "available")
            #expect(try await client.call(.get, "/v1/notifications", token: driver).list("notifications").isEmpty,
                    "what the socket handed over is not handed over again")

            let dispatcherToken = try await harness.token(.dispatcher)
            let isFirst = Mutex(true)
            let board = try await pushMessages(port: port, token: dispatcherToken) { _, text in
                if isFirst.withLock({ first in defer { first = false }; return first }) {
                    _ = try await client.call(.post, "/v1/driver/offer/refuse", token: driver)
                }
                return text.contains("offer_refused")
            }
            let first = try #require(board.first)
            #expect(first["kind"]?.scalarText == "state")
            guard case .array(let fleet)? = first["fleet"] else { throw APITestFailure("no fleet in the board's state: \(first)") }
            #expect(fleet.first?["position"]?["taxiId"]?.scalarText == "T1")
            #expect(board.last?["kind"]?.scalarText == "offer_refused")
        }
    }

    /// A planner's activation is told on the board (`zones_changed`, with
    /// the version and its zone count), so that the dispatchers' maps draw
    /// the new zones.
    @Test func theBoardIsToldWhenAZoneSetIsActivated() async throws {
        let harness = try await APIHarness()
        let hub = Task { try await harness.server.notificationHub.run() }
        defer { hub.cancel() }
        let app = Application(
            router: harness.server.router(),
            server: .http1WebSocketUpgrade(webSocketRouter: harness.server.webSocketRouter()))
        let planner = try await harness.token(.planner)
        let dispatcherToken = try await harness.token(.dispatcher)
        try await app.test(.live) { client in
            #expect(try await client.call(.post, "/v1/zone-sets", token: planner, json: ZoneSetsAPITests.splitFile).status == .created)
            let port = try #require(client.port)
            let board = try await pushMessages(port: port, token: dispatcherToken) { value, _ in
                if value["kind"]?.scalarText == "state" {
                    let activation = try await client.call(.post, "/v1/zone-sets/1/activation", token: planner)
                    #expect(activation.status == .ok)
                }
                return value["kind"]?.scalarText == "zones_changed"
            }
            let changed = try #require(board.last)
            #expect(changed["kind"]?.scalarText == "zones_changed")
            #expect(changed["version"]?.scalarText == "1")
            #expect(changed["zoneCount"]?.scalarText == "2")
            #expect(changed["at"]?.scalarText == FixTime.iso8601(APIHarness.now))
            let drawn = try await client.call(.get, "/v1/zones", token: dispatcherToken)
            #expect(try drawn.list("features").compactMap { $0["id"]?.scalarText }.sorted() == ["east", "west"])
        }
    }
}

/// Reads the `/v1/push` socket of `token` on the server at `port`, handing
/// each message (parsed, and as text) to `handle`, which may act on the
/// service and says when the reading is done; returns every message read,
/// in order. Fails when `handle` is not done within `seconds` (generous:
/// the test suites run side by side on a loaded machine).
func pushMessages(
    port: Int, token: String, seconds: Double = 30,
    until handle: @escaping @Sendable (JSONValue, String) async throws -> Bool
) async throws -> [JSONValue] {
    let received = Mutex<[JSONValue]>([])
    try await withDeadline(seconds: seconds) {
        try await WebSocketClient.connect(url: "ws://localhost:\(port)/v1/push?token=\(token)", logger: Logger(label: "test")) {
            inbound, _, _ in
            var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
            while let message = try await messages.next() {
                guard case .text(let text) = message else { continue }
                let value = try JSONParser.parse(text)
                received.withLock { $0.append(value) }
                if try await handle(value, text) { return }
            }
        }
    }
    return received.withLock { $0 }
}

/// Runs `body`, failing when it takes longer than `seconds`.
func withDeadline(seconds: Double, _ body: @escaping @Sendable () async throws -> Void) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            throw APITestFailure("no answer within \(seconds) s")
        }
        try await group.next()
        group.cancelAll()
    }
}
