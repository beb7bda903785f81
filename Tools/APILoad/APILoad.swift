import ArgumentParser
import Foundation
import GeoKit

/// `mytaxi-apiload`: the dispatch API under the load of a city's morning
/// (issue 15): drivers' and passengers' push sockets open, then a burst of
/// ride requests at once; reports how soon each requester got its first
/// answer, over HTTP and over its socket, and that none was lost or told twice.
///
/// The taxis' fixes come from `mytaxi-loadgen` beside it (the drivers'
/// taxis must be in a zone to become available); `Tools/bench-api.sh` runs both.
@main
struct APILoad: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mytaxi-apiload",
        abstract: "Load the dispatch API: push sockets of drivers and passengers, then ride requests at once.")

    @Option(help: "The service's HTTP API port.") var port: Int
    @Option(help: "An administrator's username (it creates the load's accounts).") var admin: String
    @Option(help: "The password of the administrator and of every account the load creates.") var password: String
    @Option(help: "Drivers: the taxis TX000001... of the devices file, made available.") var drivers = 500
    @Option(help: "Passengers with a push socket open.") var passengers = 2000
    @Option(help: "Ride requests sent at once, by the first passengers.") var requests = 1000
    @Option(help: "Pickups are drawn in this box: minLon,minLat,maxLon,maxLat.") var bbox = "-74.00,40.74,-73.97,40.77"
    @Option(help: "Seed of the pickups.") var seed: UInt64 = 2026

    func run() async throws {
        guard requests <= passengers else { throw ValidationError("--requests must not exceed --passengers") }
        let box = bbox.split(separator: ",").compactMap { Double($0) }
        guard box.count == 4 else { throw ValidationError("--bbox takes minLon,minLat,maxLon,maxLat") }
        let client = APIClient(port: port, connections: 256)
        let adminToken = try await client.login(admin, password: password)
        let driverNames = (1...max(drivers, 1)).prefix(drivers).map { String(format: "TX%06d", $0) }
        let passengerNames = (1...max(passengers, 1)).prefix(passengers).map { String(format: "load-p%05d", $0) }

        var started = ContinuousClock.now
        try await forEach(driverNames, concurrently: 32) { name in
            try await createAccount(client, adminToken, ["role": "driver", "username": name, "password": password])
        }
        try await forEach(passengerNames, concurrently: 32) { name in
            try await createAccount(
                client, adminToken, ["role": "passenger", "username": name, "email": "\(name)@example.com", "password": password])
        }
        print("accounts: \(drivers) drivers, \(passengers) passengers in \(started.duration(to: .now))")

        started = .now
        let tokens = ByUser<String>()
        try await forEach(driverNames + passengerNames, concurrently: 64) { name in
            tokens.set(name, try await client.login(name, password: password))
        }
        print("logins: \(drivers + passengers) in \(started.duration(to: .now))")

        started = .now
        let push = PushListener(port: port)
        for name in driverNames + passengerNames { push.open(user: name, token: tokens[name]) }
        while push.openCount < drivers + passengers, started.duration(to: .now) < .seconds(120) {
            try await Task.sleep(for: .milliseconds(50))
        }
        print("push sockets: \(push.openCount) of \(drivers + passengers) open with their state in \(started.duration(to: .now))")

        let available = Counter()
        try await forEach(driverNames, concurrently: 64) { name in
            let answer = try await client.call("PUT", "/v1/driver/availability", token: tokens[name], body: ["available": true])
            if answer.status == 200 { available.add() }
        }
        print("drivers available: \(available.value) of \(drivers) (the others' taxis have not reported from a zone)")

        var random = SplitMix64(state: seed)
        let pickups = (0..<requests).map { _ in
            (lon: box[0] + random.nextUnit() * (box[2] - box[0]), lat: box[1] + random.nextUnit() * (box[3] - box[1]))
        }
        let connections = ByUser<BurstConnection>()
        try await forEach(Array(passengerNames.prefix(requests)), concurrently: 64) { name in
            connections.set(name, try await BurstConnection.open(port: port))
        }
        let results = Results()
        let burst = ContinuousClock.now
        await withTaskGroup(of: Void.self) { group in
            for (index, pickup) in pickups.enumerated() {
                let name = passengerNames[index]
                let body = Data(#"{"pickup":{"lon":\#(pickup.lon),"lat":\#(pickup.lat)}}"#.utf8)
                group.addTask {
                    let sent = ContinuousClock.now
                    let answer = try? await connections[name].post("/v1/rides", token: tokens[name], body: body)
                    let json = answer.flatMap { try? JSONSerialization.jsonObject(with: $0.body) as? [String: Any] }
                    results.record(name, sent: sent, answered: .now, status: answer?.status ?? 0, ride: json?["rideId"] as? String)
                }
            }
        }
        let httpDone = ContinuousClock.now
        while results.pendingSocketAnswers(push) > 0, httpDone.duration(to: .now) < .seconds(10) {
            try await Task.sleep(for: .milliseconds(50))
        }
        push.closeAll()
        print("burst: \(requests) requests sent at once, all HTTP answers in \(burst.duration(to: httpDone))")
        results.report(push)
    }

    private func createAccount(_ client: APIClient, _ token: String, _ body: [String: Any]) async throws {
        let answer = try await client.call("POST", "/v1/accounts", token: token, body: body)
        guard answer.status == 201 || answer.status == 409 else {
            throw APILoadError("creating \(body["username"] ?? "") answered \(answer.status): \(answer.json ?? "")")
        }
    }

    private func forEach(
        _ names: [String], concurrently width: Int, _ body: @escaping @Sendable (String) async throws -> Void
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, name) in names.enumerated() {
                if index >= width { try await group.next() }
                group.addTask { try await body(name) }
            }
            try await group.waitForAll()
        }
    }
}
