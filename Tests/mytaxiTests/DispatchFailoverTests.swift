import DispatchCore
import Foundation
import TestSupport
import Testing

/// Two `mytaxi serve` nodes on one PostgreSQL database form one service:
/// one decides dispatch, the other passes dispatch commands on to it,
/// replays its log, knows the taxis whose terminals report to it and puts
/// in force the zone sets activated on it; when the deciding node is killed (`kill -9`), the other
/// takes dispatch over within the lease, with the state the log holds,
/// nothing acknowledged is lost, and a request retried there with its
/// `Idempotency-Key` gets the first answer.
@Suite(.serialized, .enabled(if: PostgresCluster.available, PostgresCluster.skipReason), .timeLimit(.minutes(20)), .tags(.longRunningProcesses))
struct DispatchFailoverTests {
    static let lease = 3.0

    /// `serve` for node `node` on `database`, its API on `port`.
    static func arguments(node: String, port: Int, database: String) -> [String] {
        [
            "--zones", CommandRunner.packageRoot.appendingPathComponent("Zones/manhattan/zones.geojson").path,
            "--devices", "devices.csv", "--database", database, "--http-port", "\(port)", "--osmand-port", "0",
            "--line-port", "off", "--nmea-port", "off", "--teltonika-port", "off", "--gt06-port", "off",
            "--node-id", node, "--advertise", "http://127.0.0.1:\(port)", "--dispatch-lease-seconds", "\(lease)",
            // No timer may fire while the two nodes' states are compared.
            "--offer-timeout", "3600", "--confirmation-timeout", "3600", "--stale-after", "3600",
        ]
    }

    @Test func theOtherNodeTakesDispatchOverWhenTheDecidingOneIsKilled() async throws {
        let directory = try DurabilityTests.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try "dev-T1,T1\n".write(to: directory.appendingPathComponent("devices.csv"), atomically: true, encoding: .utf8)
        let database = try PostgresCluster.createDatabase()
        let first = try await ServiceProcess(
            arguments: Self.arguments(node: "a", port: try FreeLoopbackPort.pick(), database: database),
            directory: directory, expectedListeners: ["http", "osmand/http"])
        try await Self.waitUntilDeciding(first, "a")
        let second = try await ServiceProcess(
            arguments: Self.arguments(node: "b", port: try FreeLoopbackPort.pick(), database: database),
            directory: directory, expectedListeners: ["http", "osmand/http"])
        defer { second.stop() }
        let followed = try await DispatchRestartTests.state(second, try await second.administratorSession())
        #expect(!followed.decidesHere && followed.decidedBy == "a", "b follows a: \(followed.decidesHere) \(followed.decidedBy ?? "none")")

        // The taxi reports to the deciding node; its driver and a passenger
        // reach the other one, which passes their commands on.
        let admin = try await second.administratorSession()
        let (lon, lat) = DispatchRestartTests.places[0]
        let fix = URL(string: "http://127.0.0.1:\(first.ports["osmand/http"]!)/?id=dev-T1&lat=\(lat + 0.0005)&lon=\(lon)&timestamp=\(Int(Date().timeIntervalSince1970))")!
        #expect(await ServiceProcess.get(fix).status == 200)
        let reported = Date()
        try await waitUntil("b's live fleet showing T1, whose terminal reports to a", within: .seconds(10)) {
            try await second.get("/v1/taxis/T1").status == 200
        }
        #expect(Date().timeIntervalSince(reported) < 3, "b knew of T1 \(Date().timeIntervalSince(reported)) s after a stored its fix")
        try DispatchRestartTests.expect(
            try await second.call("POST", "/v1/accounts", token: admin, json: #"{"role": "driver", "username": "T1", "password": "\#(DispatchRestartTests.password)"}"#), 201)
        try DispatchRestartTests.expect(
            try await second.call("POST", "/v1/accounts", token: admin, json: #"{"role": "passenger", "username": "p1", "password": "\#(DispatchRestartTests.password)", "email": "p1@example.com"}"#), 201)
        let driver = try await DispatchRestartTests.login(second, "T1")
        let passenger = try await DispatchRestartTests.login(second, "p1")
        try DispatchRestartTests.expect(try await second.call("PUT", "/v1/driver/availability", token: driver, json: #"{"available": true}"#), 200)
        let rideRequest = #"{"pickup": {"lon": \#(lon), "lat": \#(lat)}}"#
        let keyed = ["Idempotency-Key": "failover-ride-1"]
        let asked = try await second.call("POST", "/v1/rides", token: passenger, json: rideRequest, headers: keyed)
        try DispatchRestartTests.expect(asked, 201)

        // A zone set activated through the follower is put in force on the
        // deciding node too (the same zones, so that the state stays as it is).
        let published = try await CommandRunner.run(
            ["zones", "publish", "Zones/manhattan/zones.geojson", "--to", "http://127.0.0.1:\(second.ports["http"]!)", "--token-stdin"],
            input: admin + "\n")
        #expect(published.status == 0, "\(published.standardError)")
        try await waitUntil("a putting in force the version activated on b", within: .seconds(20)) {
            try first.log().contains("version 1 activated by \(ServiceProcess.administrator.username) on another node")
        }

        let decided = try await DispatchRestartTests.state(first, try await first.administratorSession())
        #expect(decided.decidesHere)
        #expect(decided.state.requests.count == 1, "the ride request passed on to a is in a's state")
        try await waitUntil("b replaying a's log up to entry \(decided.logSequence)") {
            try await DispatchRestartTests.state(second, admin).logSequence == decided.logSequence
        }
        #expect(try await DispatchRestartTests.state(second, admin).state == decided.state, "b's copy of the state is a's")

        first.kill()
        let killed = Date()
        try await Self.waitUntilDeciding(second, "b", within: .seconds(Self.lease + 15))
        let takeover = Date().timeIntervalSince(killed)
        let taken = try await DispatchRestartTests.state(second, admin)
        #expect(taken.logSequence == decided.logSequence)
        #expect(taken.state == decided.state, "b took over the state a's log holds")
        #expect(takeover < Self.lease + 5, "b decided \(takeover) s after a was killed")

        // The passenger's app retries its request, whose answer it never
        // got, on b: the same ride, nothing decided anew.
        let retried = try await second.call("POST", "/v1/rides", token: passenger, json: rideRequest, headers: keyed)
        #expect(retried.status == 201 && retried.body == asked.body, "\(String(decoding: retried.body, as: UTF8.self))")
        #expect(try await DispatchRestartTests.state(second, admin).logSequence == decided.logSequence)

        // b decides now: the offer a made goes on there.
        try DispatchRestartTests.expect(try await second.call("POST", "/v1/driver/offer/accept", token: driver), 200)
        let after = try await DispatchRestartTests.state(second, admin)
        #expect(after.logSequence == decided.logSequence + 1)
    }

    /// Waits until `service` says it decides dispatch as node `node`.
    static func waitUntilDeciding(_ service: ServiceProcess, _ node: String, within limit: Duration = .seconds(30)) async throws {
        let admin = try await service.administratorSession()
        try await waitUntil("node \(node) deciding dispatch", within: limit) {
            let state = try await DispatchRestartTests.state(service, admin)
            return state.decidesHere && state.decidedBy == node
        }
    }
}
