import Accounts
import DispatchCore
import DispatchRuntime
import FixRecords
import Fleet
import Foundation
import GeoKit
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JSONKit
import Logging
import Places
import Prometheus
import Routing
import ServiceClock
import Storage
import Zones
@testable import API
import MytaxiServer

/// The service's parts as `mytaxi serve` wires them (``MytaxiServer``), on
/// in-memory stores, a router on a synthetic Midtown grid, accounts with a
/// cheap bcrypt and a manual clock, with an account of every role; the
/// API is driven without listeners.
final class APIHarness: Sendable {
    static let now = Date(timeIntervalSince1970: 1_790_000_000)
    static let zoneSet = ZoneSet(zones: [
        Zone(id: "161", name: "Midtown Center", geometry: try! .rectangle(BoundingBox(minX: -74, minY: 40.7, maxX: -73.9, maxY: 40.8))),
        Zone(id: "7", name: "Astoria", geometry: try! .rectangle(BoundingBox(minX: -73.9, minY: 40.7, maxX: -73.8, maxY: 40.8))),
    ])
    /// A point of the synthetic grid, in zone 161.
    static let midtown = Coordinate(longitude: -73.985, latitude: 40.755)
    /// The taxis the devices file knows.
    static let taxisWithDevices: Set<TaxiID> = ["T1", "T2", "T3"]
    /// Every account's password.
    static let password = "s3cret-pass"

    let clock = ManualClock(now: APIHarness.now)
    /// Every part, as the service wires them.
    let service: MytaxiServer
    var fleet: FleetIndex { service.fleet }
    var archive: any FixArchive { service.stores.archive }
    var registry: PrometheusCollectorRegistry { service.stores.metrics.registry }
    var dispatcher: Dispatcher { service.dispatcher }
    var accounts: AccountService { service.accounts }
    var server: APIServer { service.api }
    var zoneSets: any ZoneSetStore { service.stores.zoneSets }
    /// The zones in force, which an activated zone set replaces.
    var zones: ActiveZones { service.zones }
    /// What puts another zone set in force, as an activation does.
    var zoneSwitch: ZoneSwitch { service.zoneSwitch }

    /// The synthetic grid's columns and rows.
    static let gridSide = 20

    /// The grid's street names, as a graph built from OSM has them: its
    /// rows are streets (`W 3 St`), its columns avenues (`Avenue 7`).
    static func streetNames(of grid: RoadGraph) -> EdgeNames {
        let tails = grid.edgeTails()
        let names = (0..<gridSide).map { "W \($0) St" } + (0..<gridSide).map { "Avenue \($0)" }
        let edgeName = (0..<grid.edgeCount).map { edge -> UInt32 in
            let tail = Int(tails[edge]), head = Int(grid.edgeHead[edge])
            return tail / gridSide == head / gridSide ? UInt32(tail / gridSide) : UInt32(gridSide + tail % gridSide)
        }
        return EdgeNames(names: names, edgeName: edgeName)
    }

    /// A walking router on the synthetic grid's streets, at 1.4 m/s.
    static func walkingRouter() -> RoadRouter {
        let grid = SyntheticCity.grid(columns: gridSide, rows: gridSide)
        let walking = RoadGraph(
            coordinates: grid.coordinates, firstEdge: grid.firstEdge, edgeHead: grid.edgeHead,
            edgeDurationMs: grid.edgeLengthMetres.map { UInt32(Double($0) / 1.4 * 1000) },
            edgeLengthMetres: grid.edgeLengthMetres, edgeRoadClass: grid.edgeRoadClass)
        return RoadRouter(graph: walking, speeds: ProfiledEdgeSpeeds(graph: walking, profile: .freeFlow), timeZone: .gmt)
    }

    /// - Parameter healthy: false leaves the terminals' listeners configured
    ///   but not running, which `/healthz` reports.
    init(
        archive: any FixArchive = InMemoryFixArchive(), healthy: Bool = true,
        leafletDirectory: String = APIServer.debianLeafletDirectory,
        registrationsPerAddressPerMinute: Int = APIServer.registrationBurst, footRouter: RoadRouter? = nil,
        places: PlaceIndex? = nil
    ) async throws {
        let grid = SyntheticCity.grid(columns: Self.gridSide, rows: Self.gridSide)
        let router = RoadRouter(graph: grid, timeZone: .gmt, edgeNames: Self.streetNames(of: grid))
        var configuration = ServiceConfiguration(zonesPath: "", graphPath: "", devicesPath: "", dataDirectory: "")
        configuration.accountSettings = AccountSettings(bcryptCost: 4)
        configuration.leafletDirectory = leafletDirectory
        configuration.registrationsPerAddressPerMinute = registrationsPerAddressPerMinute
        if healthy {
            configuration.tcpPorts = [:]
            configuration.udpPorts = [:]
        }
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        // T3 is a van of six seats; the others have the default four.
        let devices = try DeviceRegistry(
            csv: Self.taxisWithDevices.map { "dev-\($0),\($0)" + ($0 == "T3" ? ",,6" : "") }.sorted().joined(separator: "\n"))
        service = try await MytaxiServer(
            configuration: configuration,
            inputs: ServiceInputs(zoneSet: Self.zoneSet, devices: devices, router: router, footRouter: footRouter, places: places),
            stores: .inMemory(archive: archive), clock: clock, logger: logger)
        for role in Role.allCases where role != .passenger && role != .driver {
            try await accounts.createAccount(role: role, username: role.rawValue, password: Self.password)
        }
        try await accounts.createAccount(role: .passenger, username: "pat", password: Self.password, email: "pat@example.com")
        try await accounts.createAccount(role: .driver, username: "T1", password: Self.password)
    }

    /// A bearer token of `username`, straight from the account service (no rate limit).
    func token(_ username: String) async throws -> String {
        try await accounts.login(username: username, password: Self.password).token
    }

    /// A bearer token of the account of `role` made at start.
    func token(_ role: Role) async throws -> String {
        switch role {
        case .passenger: try await token("pat")
        case .driver: try await token("T1")
        default: try await token(role.rawValue)
        }
    }

    /// A fix of `taxi` at `coordinate` now, in the live index and as the fleet event the dispatcher hears.
    func report(_ taxi: TaxiID, at coordinate: Coordinate = APIHarness.midtown, zone: ZoneID? = "161") async throws {
        let position = TaxiPosition(taxiId: taxi, coordinate: coordinate, time: clock.now, speedKmh: 0, heading: 0, zoneId: zone)
        let known = fleet.latestPosition(of: taxi) != nil
        fleet.update(position, heardAt: clock.now)
        if !known, let zone {
            try await dispatcher.execute(.fleet(.appeared(taxi, zone: zone, at: clock.now)))
        }
    }

    /// Runs `body` against the API.
    func test(_ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        try await Application(router: server.router()).test(.router, body)
    }
}

/// An answer of the API, its body parsed.
struct APIAnswer {
    var status: HTTPResponse.Status
    var headers: HTTPFields
    var body: JSONValue?

    /// The member `key` of the body, as text.
    subscript(_ key: String) -> String? { body?[key]?.scalarText }

    /// The array member `key` of the body (nil: the body itself).
    /// - Throws: ``APITestFailure`` naming what came instead.
    func list(_ key: String? = nil) throws -> [JSONValue] {
        let value = key.map { body?[$0] } ?? body
        if case .array(let items)? = value { return items }
        throw APITestFailure("\(key ?? "the body") is not an array in \(status): \(body.map { "\($0)" } ?? "no body")")
    }
}

extension TestClientProtocol {
    /// Calls `method uri` with `token` as bearer, `json` as body and `idempotencyKey` as `Idempotency-Key`.
    func call(
        _ method: HTTPRequest.Method, _ uri: String, token: String? = nil, json: String? = nil, idempotencyKey: String? = nil
    ) async throws -> APIAnswer {
        var headers: HTTPFields = [:]
        if let token { headers[.authorization] = "Bearer \(token)" }
        if let idempotencyKey { headers[HTTPField.Name("Idempotency-Key")!] = idempotencyKey }
        if json != nil { headers[.contentType] = "application/json" }
        return try await execute(uri: uri, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) }) { response in
            let text = String(buffer: response.body)
            return APIAnswer(status: response.status, headers: response.headers, body: text.isEmpty ? nil : try? JSONParser.parse(text))
        }
    }
}
