import Accounts
import DispatchCore
import DispatchRuntime
import FixRecords
import Foundation
import GeoKit
import Hummingbird
import HummingbirdTesting
import Ingest
import JSONKit
import ServiceClock
import Storage
import Testing
@testable import API

/// The ride flow over the API (SPEC D1, D3, D4, D6, D8): a driver goes on
/// duty and available, a passenger asks, the driver accepts and reports
/// the ride to its end; and every way a request can be turned down.
@Suite(.timeLimit(.minutes(20))) struct RideAPITests {
    static let pickup = #"{"pickup": {"lon": -73.985, "lat": 40.755}, "destination": {"lon": -73.98, "lat": 40.76}}"#

    @Test func aRideGoesFromRequestToCompletionOverTheAPI() async throws {
        let harness = try await APIHarness()
        try await harness.report("T1")
        let passenger = try await harness.token(.passenger)
        try await harness.test { client in
            let login = try await client.call(.post, "/v1/sessions", json: #"{"username": "T1", "password": "\#(APIHarness.password)"}"#)
            #expect(login.status == .created)
            #expect(login["role"] == "driver")
            let driver = try #require(login["token"])
            #expect(try await client.call(.get, "/v1/driver", token: driver)["state"] == "unavailable", "D1: unavailable after login")
            let available = try await client.call(.put, "/v1/driver/availability", token: driver, json: #"{"available": true}"#)
            #expect(available["state"] == "available")
            #expect(available["queuePosition"] == "1")

            let asked = try await client.call(.post, "/v1/rides", token: passenger, json: Self.pickup)
            #expect(asked.status == .created)
            #expect(asked["status"] == "offered")
            #expect(asked["zoneId"] == "161")
            let ride = try #require(asked["rideId"])
            #expect(asked.headers[.location] == "/v1/rides/\(ride)")

            let desk = try await harness.token(.dispatcher)
            let open = try await client.call(.get, "/v1/rides", token: desk)
            #expect(try open.list().compactMap { $0["rideId"]?.scalarText } == [ride], "the dispatchers' list of open rides")
            #expect(try open.list().first?["status"]?.scalarText == "offered")
            #expect(try await client.call(.get, "/v1/rides?zoneId=230", token: desk).list().isEmpty, "another zone's")
            #expect(try await client.call(.get, "/v1/rides", token: passenger).status == .forbidden)

            let offered = try await client.call(.get, "/v1/driver", token: driver)
            #expect(offered["state"] == "offered")
            #expect(offered.body?["offer"]?["rideId"]?.scalarText == ride)
            #expect(offered.body?["offer"]?["offeredAt"]?.scalarText == FixTime.iso8601(harness.clock.now), "the offer's start, for the app's countdown")
            #expect(offered.body?["offer"]?["expiresAt"]?.scalarText == FixTime.iso8601(harness.clock.now.addingTimeInterval(15)))

            let accepted = try await client.call(.post, "/v1/driver/offer/accept", token: driver)
            #expect(accepted["state"] == "busy")
            let current = try await client.call(.get, "/v1/rides/current", token: passenger)
            #expect(current["status"] == "assigned")
            #expect(current["taxiId"] == "T1", "D3: the passenger is told the taxi code")
            #expect(current.body?["etaS"]?.scalarText != nil, "D3: and the router's ETA")

            let early = try await client.call(.post, "/v1/driver/ride/completed", token: driver)
            #expect(early.status == .conflict)
            #expect(early["detail"] == "POST /v1/driver/ride/completed does not apply now: ride \(ride) is on its way to the pickup; "
                + "next: POST /v1/driver/ride/arrived or POST /v1/driver/ride/aboard", "a step out of order names where the ride stands and the next calls")
            #expect(try await client.call(.post, "/v1/driver/ride/arrived", token: driver).status == .ok)
            let again = try await client.call(.post, "/v1/driver/ride/arrived", token: driver)
            #expect(again["detail"]?.contains("is at the pickup (a taxi within 20 m of it is marked arrived by itself); "
                + "next: POST /v1/driver/ride/aboard or POST /v1/driver/ride/missing-client") == true, "\(again)")
            for step in ["aboard", "completed"] {
                #expect(try await client.call(.post, "/v1/driver/ride/\(step)", token: driver).status == .ok, "\(step)")
            }
            let after = try await client.call(.post, "/v1/driver/ride/completed", token: driver)
            #expect(after["detail"] == "POST /v1/driver/ride/completed does not apply now: the taxi has no ride")
            #expect(try await client.call(.get, "/v1/driver", token: driver)["state"] == "available", "D6: free again")
            #expect(try await client.call(.get, "/v1/rides/current", token: passenger).status == .notFound)
            await harness.dispatcher.waitForWrites()
            let history = try await client.call(.get, "/v1/history", token: passenger)
            let past = try history.list("past")
            #expect(past.first?["outcome"]?.scalarText == "completed")
            #expect(past.first?["taxiId"]?.scalarText == "T1")
            let rides = try await client.call(.get, "/v1/driver/rides", token: driver)
            let served = try rides.list()
            #expect(served.count == 1)
        }
    }

    @Test func aRequestIsTurnedDownWithTheRuleItBreaks() async throws {
        let harness = try await APIHarness()
        let passenger = try await harness.token(.passenger)
        try await harness.test { client in
            let outside = try await client.call(.post, "/v1/rides", token: passenger, json: #"{"pickup": {"lon": 2.35, "lat": 48.85}}"#)
            #expect(outside.status == .unprocessableContent)
            #expect(outside["detail"]?.contains("outside the service area") == true)
            let notAPoint = try await client.call(.post, "/v1/rides", token: passenger, json: #"{"pickup": {"lon": 500, "lat": 40}}"#)
            #expect(notAPoint.status == .badRequest)
            #expect(notAPoint["detail"]?.contains("'pickup'") == true)
            let notJSON = try await client.call(.post, "/v1/rides", token: passenger, json: "{pickup")
            #expect(notJSON.status == .badRequest)

            let first = try await client.call(.post, "/v1/rides", token: passenger, json: Self.pickup)
            #expect(first.status == .created)
            let second = try await client.call(.post, "/v1/rides", token: passenger, json: Self.pickup)
            #expect(second.status == .conflict, "D3: at most one open request per passenger")
            #expect(second["detail"]?.contains(first["rideId"] ?? "?") == true)
        }
    }

    /// D4: with no free taxi the passenger learns its place and the time to
    /// confirm; it confirms, then cancels, and the ride is told as ended.
    @Test func aPassengerWithoutAFreeTaxiIsQueuedConfirmsAndCancels() async throws {
        let harness = try await APIHarness()
        let passenger = try await harness.token(.passenger)
        try await harness.test { client in
            let queued = try await client.call(.post, "/v1/rides", token: passenger, json: Self.pickup)
            #expect(queued["status"] == "queued")
            #expect(queued["queuePosition"] == "1")
            #expect(queued["confirmBy"] != nil)
            let ride = try #require(queued["rideId"])
            let confirmed = try await client.call(.post, "/v1/rides/\(ride)/confirmation", token: passenger)
            #expect(confirmed.status == .ok)
            #expect(confirmed["confirmBy"] == nil)
            #expect(try await client.call(.delete, "/v1/rides/\(ride)", token: passenger).status == .noContent)
            let ended = try await client.call(.get, "/v1/rides/\(ride)", token: passenger)
            #expect(ended.status == .ok)
            #expect(ended["status"] == "ended")
            #expect(ended["outcome"] == "cancelled")
            #expect(try await client.call(.post, "/v1/rides/\(ride)/confirmation", token: passenger).status == .notFound)
            #expect(try await client.call(.get, "/v1/rides/R999", token: passenger).status == .notFound)
            #expect(try await client.call(.get, "/v1/rides/banana", token: passenger).status == .badRequest)
        }
    }

    /// Another passenger's ride is not there for this one.
    @Test func aPassengerSeesOnlyItsOwnRides() async throws {
        let harness = try await APIHarness()
        try await harness.accounts.createAccount(role: .passenger, username: "kim", password: APIHarness.password, email: "kim@example.com")
        let pat = try await harness.token(.passenger)
        let kim = try await harness.token("kim")
        try await harness.test { client in
            let ride = try #require(try await client.call(.post, "/v1/rides", token: pat, json: Self.pickup)["rideId"])
            #expect(try await client.call(.get, "/v1/rides/\(ride)", token: kim).status == .notFound)
            #expect(try await client.call(.delete, "/v1/rides/\(ride)", token: kim).status == .notFound)
            #expect(try await client.call(.get, "/v1/rides/\(ride)", token: pat).status == .ok)
        }
    }

    /// A dispatcher asks for a phone caller, who must be named by number,
    /// and finds the ride by its id after it ended; a passenger does not.
    @Test func aDispatcherRequestsARideForAPhoneCaller() async throws {
        let harness = try await APIHarness()
        let dispatcher = try await harness.token(.dispatcher)
        let passenger = try await harness.token(.passenger)
        try await harness.test { client in
            let nameless = try await client.call(.post, "/v1/rides", token: dispatcher, json: Self.pickup)
            #expect(nameless.status == .unprocessableContent)
            #expect(nameless["detail"]?.contains("callerPhone") == true)
            let body = #"{"pickup": {"lon": -73.985, "lat": 40.755}, "callerPhone": "+1 212 555 0100"}"#
            let asked = try await client.call(.post, "/v1/rides", token: dispatcher, json: body)
            #expect(asked.status == .created)
            #expect(asked["passengerId"] == "phone:+12125550100")
            let ride = try #require(asked["rideId"])
            #expect(try await client.call(.delete, "/v1/rides/\(ride)", token: dispatcher).status == .noContent)
            let ended = try await client.call(.get, "/v1/rides/\(ride)", token: dispatcher)
            #expect(ended.status == .ok)
            #expect(ended["status"] == "ended")
            #expect(ended["passengerId"] == "phone:+12125550100")
            #expect(ended["endedAt"] != nil)
            #expect(try await client.call(.get, "/v1/rides/\(ride)", token: passenger).status == .notFound)

            await harness.dispatcher.waitForWrites()
            let today = try await client.call(.get, "/v1/rides/by-phone", token: dispatcher).list()
            #expect(today.map { $0["rideId"]?.scalarText } == [ride], "today's phone rides")
            #expect(today.first?["outcome"]?.scalarText == "cancelled")
            let callers = try await client.call(.get, "/v1/rides/by-phone?callerPhone=%2B1%20212%20555%200100&days=7", token: dispatcher)
            #expect(try callers.list().map { $0["rideId"]?.scalarText } == [ride], "the caller who calls back")
            #expect(try await client.call(.get, "/v1/rides/by-phone?callerPhone=%2B1%20212%20555%200111", token: dispatcher).list().isEmpty)
            #expect(try await client.call(.get, "/v1/rides/by-phone?days=32", token: dispatcher).status == .badRequest)
            #expect(try await client.call(.get, "/v1/rides/by-phone", token: passenger).status == .forbidden)
        }
    }

    /// A party asks for its seats: one larger than any taxi of the registry
    /// is refused at once naming the largest; one that fits waits for a taxi
    /// with room (the 4-seat T1 free is not offered it) and gets the van T3
    /// once its driver logs in, which tells the dispatcher its six seats.
    @Test func aPartyIsServedByATaxiWithRoomOrRefusedWhenNoneHasIt() async throws {
        let harness = try await APIHarness()
        try await harness.accounts.createAccount(role: .driver, username: "T3", password: APIHarness.password)
        try await harness.report("T1")
        try await harness.report("T3")
        let passenger = try await harness.token(.passenger)
        let party = #"{"pickup": {"lon": -73.985, "lat": 40.755}, "seats": "#
        try await harness.test { client in
            let saloon = try #require(
                try await client.call(.post, "/v1/sessions", json: #"{"username": "T1", "password": "\#(APIHarness.password)"}"#)["token"])
            #expect(try await client.call(.put, "/v1/driver/availability", token: saloon, json: #"{"available": true}"#).status == .ok)
            let tooMany = try await client.call(.post, "/v1/rides", token: passenger, json: party + "7}")
            #expect(tooMany.status == .unprocessableContent)
            #expect(tooMany["detail"]?.contains("the largest seats 6") == true, "\(tooMany)")
            #expect(try await client.call(.post, "/v1/rides", token: passenger, json: party + "0}").status == .badRequest)
            let asked = try await client.call(.post, "/v1/rides", token: passenger, json: party + "5}")
            #expect(asked.status == .created)
            #expect(asked["status"] == "queued", "the free 4-seat taxi is not offered a party of five")
            #expect(asked["seats"] == "5")
            let login = try await client.call(.post, "/v1/sessions", json: #"{"username": "T3", "password": "\#(APIHarness.password)"}"#)
            let van = try #require(login["token"])
            #expect(try await client.call(.put, "/v1/driver/availability", token: van, json: #"{"available": true}"#)["state"] == "offered")
            #expect(await harness.dispatcher.taxiRecords()["T3"]?.seats == 6)
            #expect(try await client.call(.get, "/v1/rides/current", token: passenger)["status"] == "offered")
        }
    }

    /// A dispatcher books ahead for a phone caller as for a ride now, sees
    /// every booking (or one caller's) and cancels it; a passenger sees
    /// none of the callers' and may not name one.
    @Test func aDispatcherBooksAheadForAPhoneCaller() async throws {
        let harness = try await APIHarness()
        let dispatcher = try await harness.token(.dispatcher)
        let passenger = try await harness.token(.passenger)
        let at = FixTime.iso8601(APIHarness.now.addingTimeInterval(3 * 3600))
        let booking = #"{"pickup": {"lon": -73.985, "lat": 40.755}, "destination": {"lon": -73.98, "lat": 40.76}, "pickupAt": "\#(at)""#
        try await harness.test { client in
            let nameless = try await client.call(.post, "/v1/reservations", token: dispatcher, json: booking + "}")
            #expect(nameless.status == .unprocessableContent)
            #expect(nameless["detail"]?.contains("callerPhone") == true)
            let booked = try await client.call(.post, "/v1/reservations", token: dispatcher, json: booking + #", "callerPhone": "+1 212 555 0199"}"#)
            #expect(booked.status == .created)
            #expect(booked["passengerId"] == "phone:+12125550199")
            let id = try #require(booked["reservationId"])
            let own = try await client.call(.post, "/v1/reservations", token: passenger, json: booking + "}")
            #expect(own["passengerId"] == "pat")
            let asPassenger = try await client.call(.post, "/v1/reservations", token: passenger, json: booking + #", "callerPhone": "+1 212 555 0199"}"#)
            #expect(asPassenger.status == .unprocessableContent, "a passenger books for itself")

            #expect(try await client.call(.get, "/v1/reservations", token: dispatcher).list().count == 2, "the dispatcher sees every booking")
            let callers = try await client.call(.get, "/v1/reservations?callerPhone=%2B1%20212%20555%200199", token: dispatcher).list()
            #expect(callers.map { $0["reservationId"]?.scalarText } == [id], "one caller's")
            #expect(try await client.call(.get, "/v1/reservations", token: passenger).list().map { $0["passengerId"]?.scalarText } == ["pat"])
            #expect(try await client.call(.get, "/v1/reservations/\(id)", token: passenger).status == .notFound)
            #expect(try await client.call(.get, "/v1/reservations/\(id)", token: dispatcher)["passengerId"] == "phone:+12125550199")
            #expect(try await client.call(.delete, "/v1/reservations/\(id)", token: dispatcher).status == .noContent)
            #expect(try await client.call(.get, "/v1/reservations?callerPhone=%2B1%20212%20555%200199", token: dispatcher).list().isEmpty)
        }
    }

    /// D5 over the API: a booking outside 2–48 h is refused, one inside is
    /// listed, and cancelling within the last hour is refused.
    @Test func reservationsKeepTheirWindows() async throws {
        let harness = try await APIHarness()
        let passenger = try await harness.token(.passenger)
        @Sendable func body(hoursAhead: Double) -> String {
            let at = FixTime.iso8601(APIHarness.now.addingTimeInterval(hoursAhead * 3600))
            return #"{"origin": {"lon": -73.985, "lat": 40.755}, "destination": {"lon": -73.98, "lat": 40.76}, "pickupAt": "\#(at)"}"#
        }
        try await harness.test { client in
            #expect(try await client.call(.post, "/v1/reservations", token: passenger, json: body(hoursAhead: 1)).status == .unprocessableContent)
            #expect(try await client.call(.post, "/v1/reservations", token: passenger, json: body(hoursAhead: 49)).status == .unprocessableContent)
            let booked = try await client.call(.post, "/v1/reservations", token: passenger, json: body(hoursAhead: 3))
            #expect(booked.status == .created)
            #expect(booked["status"] == "booked")
            #expect(booked.body?["pickup"] == booked.body?["origin"] && booked.body?["pickup"] != nil, "pickup, as rides name it")
            let at = FixTime.iso8601(APIHarness.now.addingTimeInterval(4 * 3600))
            let named = try await client.call(
                .post, "/v1/reservations", token: passenger,
                json: #"{"pickup": {"lon": -73.985, "lat": 40.755}, "destination": {"lon": -73.98, "lat": 40.76}, "pickupAt": "\#(at)"}"#)
            #expect(named.status == .created, "the pickup named as a ride's")
            #expect(try await client.call(.delete, "/v1/reservations/\(named["reservationId"] ?? "")", token: passenger).status == .noContent)
            let id = try #require(booked["reservationId"])
            let listed = try await client.call(.get, "/v1/reservations", token: passenger)
            let reservations = try listed.list()
            #expect(reservations.map { $0["reservationId"]?.scalarText } == [id])
            harness.clock.advance(by: .seconds(2.5 * 3600))
            let late = try await client.call(.delete, "/v1/reservations/\(id)", token: passenger)
            #expect(late.status == .conflict, "D5: cancellable only until 1 h before")
        }
    }

    /// The same booking twice is refused naming the first, and a passenger
    /// holds at most five open reservations: each takes a taxi out of its
    /// zone's queue, so one account could otherwise empty a zone.
    @Test func aDuplicateOrASixthReservationIsRefused() async throws {
        let harness = try await APIHarness()
        let passenger = try await harness.token(.passenger)
        @Sendable func body(hoursAhead: Double, lon: Double = -73.985) -> String {
            let at = FixTime.iso8601(APIHarness.now.addingTimeInterval(hoursAhead * 3600))
            return #"{"origin": {"lon": \#(lon), "lat": 40.755}, "destination": {"lon": -73.98, "lat": 40.76}, "pickupAt": "\#(at)"}"#
        }
        try await harness.test { client in
            let first = try await client.call(.post, "/v1/reservations", token: passenger, json: body(hoursAhead: 3))
            #expect(first.status == .created)
            let again = try await client.call(.post, "/v1/reservations", token: passenger, json: body(hoursAhead: 3, lon: -73.98501))
            #expect(again.status == .conflict)
            #expect(again["detail"]?.contains("already holds reservation \(first["reservationId"] ?? "?")") == true, "\(again.body.map { "\($0)" } ?? "")")
            for hours in [4.0, 5, 6, 7] {
                #expect(try await client.call(.post, "/v1/reservations", token: passenger, json: body(hoursAhead: hours)).status == .created)
            }
            let sixth = try await client.call(.post, "/v1/reservations", token: passenger, json: body(hoursAhead: 8))
            #expect(sixth.status == .conflict)
            #expect(sixth["detail"]?.contains("already holds 5 open reservations") == true)
            #expect(try await client.call(.get, "/v1/reservations", token: passenger).list().count == 5)
        }
    }
}

/// A failed expectation about an answer's shape.
struct APITestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
