import Accounts
import DispatchCore
import DispatchRuntime
import FixRecords
import Foundation
import GeoKit
import Hummingbird
import HummingbirdTesting
import JSONKit
import Storage
import Testing
import TestSupport
@testable import API

/// SPEC D10 over the API: a shared request served alone starts its taxi's
/// itinerary; a second one going the same way joins that taxi at once and
/// is told its pickup ETA and its terms; the driver sees every stop and
/// reports boarding and getting out per rider; the taxi is free again after
/// the last stop.
@Suite(.timeLimit(.minutes(20))) struct SharedRideAPITests {
    static let first = #"{"pickup": {"lon": -73.985, "lat": 40.755}, "destination": {"lon": -73.975, "lat": 40.765}, "shared": true}"#
    static let second = #"{"pickup": {"lon": -73.984, "lat": 40.756}, "destination": {"lon": -73.976, "lat": 40.764}, "shared": true}"#

    @Test func aSecondRiderGoingTheSameWayJoinsTheTaxiAndTheDriverReportsEachRider() async throws {
        let harness = try await APIHarness()
        try await harness.accounts.createAccount(role: .passenger, username: "sam", password: APIHarness.password, email: "sam@example.com")
        try await harness.report("T1", at: RideFollowingAPITests.taxiStand)
        let driver = try await harness.token(.driver)
        let pat = try await harness.token(.passenger), sam = try await harness.token("sam")
        try await harness.test { client in
            try await harness.dispatcher.execute(.login("T1"))
            #expect(try await client.call(.put, "/v1/driver/availability", token: driver, json: #"{"available": true}"#).status == .ok)
            let asked = try await client.call(.post, "/v1/rides", token: pat, json: Self.first)
            #expect(asked.status == .created, "\(asked.body.map { "\($0)" } ?? "")")
            let patRide = try #require(asked["rideId"])
            #expect(asked.body?["shared"]?["maximumAddedDelayS"]?.scalarText.flatMap(Double.init).map { $0 > 0 } == true, "\(asked)")
            let alone = try await client.call(.get, "/v1/waits?lon=-73.984&lat=40.756&to=-73.976,40.764", token: sam)
            #expect(alone.body?["shared"]?["joinsSharedRide"]?.scalarText == "false", "no taxi on a shared ride yet: \(alone)")
            let accepted = try await client.call(.post, "/v1/driver/offer/accept", token: driver)
            #expect(try accepted.list("itinerary").map { $0["stop"]?.scalarText } == ["pickup", "dropoff"])

            // Before asking, sam is told what a shared ride would be: T1 coming, and the trip's bound.
            let quote = try await client.call(.get, "/v1/waits?lon=-73.984&lat=40.756&to=-73.976,40.764", token: sam)
            #expect(quote.body?["shared"]?["joinsSharedRide"]?.scalarText == "true", "\(quote)")
            let quoted = try #require(quote.body?["shared"]?["expectedPickupS"]?.scalarText.flatMap(Double.init))
            #expect(quote.body?["shared"]?["maximumAddedDelayS"]?.scalarText.flatMap(Double.init).map { $0 > 0 } == true)

            let joined = try await client.call(.post, "/v1/rides", token: sam, json: Self.second)
            #expect(joined.status == .created)
            let samRide = try #require(joined["rideId"])
            #expect(joined["status"] == "assigned" && joined["taxiId"] == "T1", "joined T1 at once: \(joined)")
            #expect(joined["etaS"].flatMap(Double.init).map { abs($0 - quoted) < 2 } == true, "told \(quoted) s before: \(joined)")
            #expect(joined.body?["shared"]?["latestPickupAt"]?.scalarText != nil)

            // Sam's way to the pickup goes by the stops before it, as its ETA does.
            let route = try await client.call(.get, "/v1/rides/\(samRide)/route", token: sam).list("features")
            let toPickup = try #require(route.first { $0["properties"]?["leg"]?.scalarText == "toPickup" })
            let routeSeconds = try #require(toPickup["properties"]?["durationS"]?.scalarText.flatMap(Double.init))
            let eta = try #require(joined["etaS"].flatMap(Double.init))
            #expect(abs(routeSeconds - eta) < 30, "the route to the pickup takes \(routeSeconds) s, the ETA told \(eta) s")

            var view = try await client.call(.get, "/v1/driver", token: driver)
            let stops = try view.list("itinerary")
            #expect(stops.count == 4)
            #expect(Set(stops.compactMap { $0["rideId"]?.scalarText }) == [patRide, samRide])
            #expect(stops.first?["rideId"]?.scalarText == patRide || stops.first?["rideId"]?.scalarText == samRide)
            let order = stops.map { "\($0["rideId"]?.scalarText ?? "")/\($0["stop"]?.scalarText ?? "")" }
            for ride in [patRide, samRide] {
                let pickup = try #require(order.firstIndex(of: "\(ride)/pickup")), dropoff = try #require(order.firstIndex(of: "\(ride)/dropoff"))
                #expect(pickup < dropoff, "\(order)")
            }

            // Boarding in any order, each rider by name; a rider not on board cannot get out.
            #expect(try await client.call(.post, "/v1/driver/ride/aboard?rideId=\(samRide)", token: driver).status == .ok)
            let early = try await client.call(.post, "/v1/driver/ride/completed?rideId=\(patRide)", token: driver)
            #expect(early.status == .conflict && early["detail"]?.contains("ride \(patRide) is on its way to the pickup") == true, "\(early)")
            #expect(try await client.call(.post, "/v1/driver/ride/aboard?rideId=\(patRide)", token: driver).status == .ok)
            #expect(try await client.call(.get, "/v1/rides/current", token: pat).body?["status"]?.scalarText == "aboard")
            #expect(try await client.call(.post, "/v1/driver/ride/completed?rideId=\(samRide)", token: driver).status == .ok)
            #expect(try await client.call(.get, "/v1/rides/current", token: sam).status == .notFound, "sam's ride ended")
            view = try await client.call(.get, "/v1/driver", token: driver)
            #expect(try view.list("itinerary").map { $0["rideId"]?.scalarText } == [patRide])
            #expect(view["state"] == "busy")
            view = try await client.call(.post, "/v1/driver/ride/completed", token: driver)
            #expect(view["state"] == "available" && view.body?["itinerary"] == nil, "free after the last stop: \(view)")
        }
    }

    @Test func aSharedRideNeedsADestinationAndRiderIdsAreChecked() async throws {
        let harness = try await APIHarness()
        let driver = try await harness.token(.driver)
        try await harness.test { client in
            let noDestination = try await client.call(
                .post, "/v1/rides", token: try await harness.token(.passenger), json: #"{"pickup": {"lon": -73.985, "lat": 40.755}, "shared": true}"#)
            #expect(noDestination.status == .badRequest && noDestination["detail"]?.contains("destination") == true, "\(noDestination)")
            let badRider = try await client.call(.post, "/v1/driver/ride/aboard?rideId=twelve", token: driver)
            #expect(badRider.status == .badRequest && badRider["detail"]?.contains("R12") == true, "\(badRider)")
        }
    }
}
