import Accounts
import DispatchCore
import DispatchRuntime
import FixRecords
import Foundation
import GeoKit
import Hummingbird
import HummingbirdTesting
import HummingbirdWebSocket
import JSONKit
import ServiceClock
import Storage
import Synchronization
import Testing
import TestSupport
@testable import API

/// A passenger follows the taxi on its way (SPEC D6, R3): the open ride
/// carries the taxi's latest position, the push socket sends each new fix
/// of it (`taxi_position`), and the ride's route to the pickup and on to
/// the destination is there as GeoJSON for the passenger, the driver and
/// the dispatcher, and nobody else.
@Suite(.timeLimit(.minutes(20)), .tags(.realTimeWaits)) struct RideFollowingAPITests {
    /// Where T1 waits: in zone 161, a few blocks from ``RideAPITests/pickup``.
    static let taxiStand = Coordinate(longitude: -73.99, latitude: 40.75)

    /// T1 available at ``taxiStand``, pat's ride offered to it and accepted.
    private func acceptedRide(_ harness: APIHarness, _ client: any TestClientProtocol) async throws -> (driver: String, ride: String) {
        try await harness.report("T1", at: Self.taxiStand)
        let driver = try await harness.token(.driver)
        try await harness.dispatcher.execute(.login("T1"))
        #expect(try await client.call(.put, "/v1/driver/availability", token: driver, json: #"{"available": true}"#).status == .ok)
        let asked = try await client.call(.post, "/v1/rides", token: try await harness.token(.passenger), json: RideAPITests.pickup)
        let ride = try #require(asked["rideId"])
        #expect(try await client.call(.post, "/v1/driver/offer/accept", token: driver).status == .ok)
        return (driver, ride)
    }

    @Test func theOpenRideCarriesItsTaxisPositionAndItsRoute() async throws {
        let harness = try await APIHarness()
        try await harness.accounts.createAccount(role: .passenger, username: "sam", password: APIHarness.password, email: "sam@example.com")
        let passenger = try await harness.token(.passenger)
        try await harness.test { client in
            let (driver, ride) = try await acceptedRide(harness, client)
            let current = try await client.call(.get, "/v1/rides/current", token: passenger)
            #expect(current.body?["taxi"]?["taxiId"]?.scalarText == "T1")
            #expect(current.body?["taxi"]?["lon"]?.scalarText == "-73.99")
            #expect(current.body?["taxi"]?["lat"]?.scalarText == "40.75")
            #expect(current.body?["taxi"]?["time"]?.scalarText == FixTime.iso8601(harness.clock.now))

            for token in [passenger, driver, try await harness.token(.dispatcher)] {
                let route = try await client.call(.get, "/v1/rides/\(ride)/route", token: token)
                #expect(route.status == .ok)
                #expect(route.headers[.contentType] == "application/geo+json")
                let legs = try route.list("features")
                #expect(legs.map { $0["properties"]?["leg"]?.scalarText } == ["toPickup", "toDestination"])
                for leg in legs {
                    #expect((leg["properties"]?["durationS"]?.scalarText).flatMap(Double.init).map { $0 > 0 } == true, "\(leg)")
                    #expect((leg["properties"]?["distanceM"]?.scalarText).flatMap(Double.init).map { $0 > 100 } == true, "\(leg)")
                    guard case .array(let line)? = leg["geometry"]?["coordinates"] else { throw APITestFailure("no line: \(leg)") }
                    #expect(line.count >= 2)
                }
                guard case .array(let toPickup)? = legs.first?["geometry"]?["coordinates"], case .array(let start)? = toPickup.first,
                      case .number(let lon) = start[0], case .number(let lat) = start[1] else {
                    throw APITestFailure("no start of the way to the pickup")
                }
                #expect(Coordinate(longitude: lon, latitude: lat).haversineDistance(to: Self.taxiStand) < 100, "it starts at the taxi")
            }
            let sam = try await harness.token("sam")
            #expect(try await client.call(.get, "/v1/rides/\(ride)/route", token: sam).status == .notFound, "another passenger's ride")
            #expect(try await client.call(.get, "/v1/rides/\(ride)/route", token: try await harness.token(.planner)).status == .forbidden)
            #expect(try await client.call(.get, "/v1/rides/R999/route", token: passenger).status == .notFound)

            let driverView = try await client.call(.get, "/v1/driver", token: driver)
            #expect(driverView.body?["position"]?["lon"]?.scalarText == "-73.99", "the driver's app sees where its terminal put it")

            #expect(try await client.call(.post, "/v1/driver/ride/arrived", token: driver).status == .ok)
            let arrived = try await client.call(.get, "/v1/rides/\(ride)/route", token: passenger)
            #expect(try arrived.list("features").map { $0["properties"]?["leg"]?.scalarText } == ["toDestination"], "no way to the pickup once there")
            let waiting = try await client.call(.get, "/v1/driver", token: driver)
            #expect(waiting.body?["ride"]?["arrivedAt"]?.scalarText == FixTime.iso8601(harness.clock.now))
            #expect(waiting.body?["ride"]?["missingClientFrom"]?.scalarText == FixTime.iso8601(harness.clock.now.addingTimeInterval(300)),
                    "the app counts down to the rules' wait")
            #expect(try await client.call(.post, "/v1/driver/ride/aboard", token: driver).status == .ok)
            let told = try await client.call(.get, "/v1/notifications", token: passenger).list("notifications").map { $0["kind"]?.scalarText }
            #expect(told.suffix(2) == ["taxi_arrived", "passenger_aboard"], "the passenger is told the ride is under way: \(told)")
        }
    }

    @Test func thePassengersSocketGetsEachNewFixOfTheTaxiOnItsWay() async throws {
        let harness = try await APIHarness()
        let hub = harness.server.notificationHub
        let app = Application(
            router: harness.server.router(),
            server: .http1WebSocketUpgrade(webSocketRouter: harness.server.webSocketRouter()))
        let passenger = try await harness.token(.passenger)
        let hubRun = Task { try await hub.run() }
        defer { hubRun.cancel() }
        try await app.test(.live) { client in
            let (_, ride) = try await acceptedRide(harness, client)
            let port = try #require(client.port)
            let closer = Coordinate(longitude: -73.987, latitude: 40.753)
            let received = try await pushMessages(port: port, token: passenger) { value, _ in
                switch value["kind"]?.scalarText {
                case "state":
                    await hub.sendTaxiPositions()
                    return false
                case "taxi_position" where value["lon"]?.scalarText == "-73.99":
                    await hub.sendTaxiPositions()
                    harness.clock.advance(by: .seconds(5))
                    try await harness.report("T1", at: closer)
                    await hub.sendTaxiPositions()
                    return false
                case "taxi_position":
                    return true
                default:
                    return false
                }
            }
            let kinds = received.map { $0["kind"]?.scalarText }
            #expect(kinds.first == "state")
            #expect(received.first?["ride"]?["taxi"]?["taxiId"]?.scalarText == "T1", "the state carries the taxi's position too")
            let positions = received.filter { $0["kind"]?.scalarText == "taxi_position" }
            #expect(positions.map { $0["lon"]?.scalarText } == ["-73.99", "-73.987"], "each fix once, in order: \(positions)")
            #expect(positions.allSatisfy { $0["rideId"]?.scalarText == ride && $0["taxiId"]?.scalarText == "T1" })
            #expect(positions.allSatisfy { $0["etaS"] != nil && $0["heading"] != nil && $0["time"] != nil && $0["id"] == nil })
        }
    }
}
