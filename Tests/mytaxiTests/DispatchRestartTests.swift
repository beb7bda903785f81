import DispatchCore
import Foundation
import GeoKit
import Testing

/// SPEC D1–D6 and DESIGN "durability before acknowledgement": a random
/// sequence of drivers' and passengers' actions over the API of the real
/// `mytaxi serve`, then `kill -9`, then a restart: the engine's state
/// (queues, open requests, pending offers, rides, reservations, counters)
/// is the same, compared through the engine's own snapshot.
@Suite(.serialized, .timeLimit(.minutes(20))) struct DispatchRestartTests {
    static let taxis = (1...6).map { "T\($0)" }
    static let passengers = (1...8).map { "p\($0)" }
    static let password = "restart-pass-1"
    /// Road points of Midtown (the demo graph), each inside a Manhattan taxi zone.
    static let places = [
        (-73.9855, 40.7580), (-73.9772, 40.7527), (-73.99377, 40.75141),
        (-73.9800, 40.7610), (-73.9870, 40.7500), (-73.9750, 40.7560),
    ]

    static func serveArguments() -> [String] {
        [
            "--zones", CommandRunner.packageRoot.appendingPathComponent("Zones/manhattan/zones.geojson").path,
            "--devices", "devices.csv", "--data-dir", "data", "--http-port", "0", "--osmand-port", "0",
            "--line-port", "off", "--nmea-port", "off", "--teltonika-port", "off", "--gt06-port", "off",
            // No timer may fire between the state read and the kill.
            "--offer-timeout", "3600", "--confirmation-timeout", "3600", "--stale-after", "3600",
        ]
    }

    @Test(arguments: [2026, 7]) func theDispatchStateSurvivesKillNine(seed: UInt64) async throws {
        try await Self.runAndRestart(seed: seed, arguments: Self.serveArguments())
    }

    /// The same with every store in PostgreSQL (`--database`).
    @Test(.enabled(if: PostgresCluster.available, PostgresCluster.skipReason))
    func theDispatchStateSurvivesKillNineOnPostgreSQL() async throws {
        try await Self.runAndRestart(seed: 2026, arguments: Self.serveArguments() + ["--database", try PostgresCluster.createDatabase()])
    }

    /// A random sequence of seed `seed` on a service started with
    /// `arguments`, then `kill -9` and a restart: the state must be the same.
    static func runAndRestart(seed: UInt64, arguments: [String]) async throws {
        let directory = try DurabilityTests.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.taxis.map { "dev-\($0),\($0)" }.joined(separator: "\n")
            .write(to: directory.appendingPathComponent("devices.csv"), atomically: true, encoding: .utf8)
        let service = try await ServiceProcess(arguments: arguments, directory: directory, expectedListeners: ["http", "osmand/http"])
        let admin = try await service.administratorSession()
        for taxi in Self.taxis {
            let index = Int(taxi.dropFirst())! - 1
            // 55 m north of a pickup place: no taxi arrives by itself while the state is compared.
            let (lon, lat) = Self.places[index % Self.places.count]
            let url = URL(string: "http://127.0.0.1:\(service.ports["osmand/http"]!)/?id=dev-\(taxi)&lat=\(lat + 0.0005)&lon=\(lon)&timestamp=\(Int(Date().timeIntervalSince1970))")!
            #expect(await ServiceProcess.get(url).status == 200)
            try await Self.expect(service.call("POST", "/v1/accounts", token: admin, json: #"{"role": "driver", "username": "\#(taxi)", "password": "\#(Self.password)"}"#), 201, from: service)
        }
        for passenger in Self.passengers {
            try await Self.expect(service.call("POST", "/v1/accounts", token: admin, json: #"{"role": "passenger", "username": "\#(passenger)", "password": "\#(Self.password)", "email": "\#(passenger)@example.com"}"#), 201, from: service)
        }
        var tokens: [String: String] = [:]
        var random = SplitMix64(state: seed)
        func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
        for _ in 0..<120 {
            let taxi = pick(Self.taxis), passenger = pick(Self.passengers)
            let (lon, lat) = pick(Self.places)
            let answer: (status: Int, body: Data)
            switch random.next() % 10 {
            case 0, 1:
                if tokens[taxi] == nil { tokens[taxi] = try await Self.login(service, taxi) }
                answer = try await service.call("PUT", "/v1/driver/availability", token: tokens[taxi], json: #"{"available": true}"#)
            case 2:
                guard let token = tokens[taxi] else { continue }
                answer = try await service.call("POST", "/v1/driver/offer/\(random.next() % 3 == 0 ? "refuse" : "accept")", token: token)
            case 3:
                guard let token = tokens[taxi] else { continue }
                answer = try await service.call("POST", "/v1/driver/ride/\(pick(["arrived", "aboard", "completed"]))", token: token)
            case 4, 5:
                if tokens[passenger] == nil { tokens[passenger] = try await Self.login(service, passenger) }
                answer = try await service.call("POST", "/v1/rides", token: tokens[passenger], json: #"{"pickup": {"lon": \#(lon), "lat": \#(lat)}}"#)
            case 6:
                guard let token = tokens[passenger] else { continue }
                answer = try await service.call("DELETE", "/v1/rides/R\(1 + random.next() % 20)", token: token)
            case 7:
                if tokens[passenger] == nil { tokens[passenger] = try await Self.login(service, passenger) }
                let at = Date().addingTimeInterval(3 * 3600 + Double(random.next() % 3600)).formatted(.iso8601)
                answer = try await service.call("POST", "/v1/reservations", token: tokens[passenger], json: #"{"origin": {"lon": \#(lon), "lat": \#(lat)}, "destination": {"lon": -73.98, "lat": 40.76}, "pickupAt": "\#(at)"}"#)
            case 8:
                guard let token = tokens[passenger] else { continue }
                answer = try await service.call("POST", "/v1/rides/R\(1 + random.next() % 20)/confirmation", token: token)
            default:
                guard let token = tokens[taxi] else { continue }
                answer = try await service.call("PUT", "/v1/driver/availability", token: token, json: #"{"available": false}"#)
            }
            #expect((200..<500).contains(answer.status), "\(answer.status): \(String(decoding: answer.body, as: UTF8.self))")
        }
        let before = try await Self.state(service, admin)
        #expect(!before.state.requests.isEmpty || !before.state.reservations.isEmpty, "the sequence left something open")
        service.kill()

        let restarted = try await ServiceProcess(arguments: arguments, directory: directory, expectedListeners: ["http", "osmand/http"])
        defer { restarted.stop() }
        let after = try await Self.state(restarted, try await restarted.administratorSession())
        #expect(after.logSequence == before.logSequence)
        #expect(after.state == before.state)
    }

    struct StateAnswer: Decodable {
        var logSequence: Int64
        var state: DispatchSnapshot
        var decidesHere: Bool
        var decidedBy: String?
    }

    static func state(_ service: ServiceProcess, _ token: String) async throws -> StateAnswer {
        let answer = try await service.call("GET", "/v1/dispatch/state", token: token)
        try expect(answer, 200)
        return try JSONDecoder().decode(StateAnswer.self, from: answer.body)
    }

    static func login(_ service: ServiceProcess, _ username: String) async throws -> String {
        let answer = try await service.call("POST", "/v1/sessions", json: #"{"username": "\#(username)", "password": "\#(password)"}"#)
        try expect(answer, 201)
        guard let token = (try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])?["token"] as? String else {
            throw ServiceProcessError("no token in \(String(decoding: answer.body, as: UTF8.self))")
        }
        return token
    }

    static func expect(_ answer: (status: Int, body: Data), _ status: Int, from service: ServiceProcess? = nil) throws {
        guard answer.status == status else {
            let log = service.flatMap { try? $0.log() }.map { "\nthe service's log ends:\n\($0.suffix(4000))" } ?? ""
            throw ServiceProcessError("expected \(status), got \(answer.status): \(String(decoding: answer.body, as: UTF8.self))\(log)")
        }
    }
}
