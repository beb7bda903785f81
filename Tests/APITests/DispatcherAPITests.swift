import Accounts
import DispatchCore
import DispatchRuntime
import FixRecords
import Foundation
import GeoKit
import Hummingbird
import HummingbirdTesting
import JSONKit
import ServiceClock
import Storage
import Testing
@testable import API

/// The dispatcher's reads (SPEC Z2, D2, D4, R3): the zone of a point, a
/// zone's queues, the nearest zones with free taxis, the fleet, an ETA.
@Suite(.timeLimit(.minutes(20))) struct DispatcherAPITests {
    @Test func theZoneOfAPointOr404Outside() async throws {
        let harness = try await APIHarness()
        let token = try await harness.token(.dispatcher)
        try await harness.test { client in
            let zone = try await client.call(.get, "/v1/zones/at?lon=-73.95&lat=40.75", token: token)
            #expect(zone.status == .ok)
            #expect(zone["zoneId"] == "161")
            #expect(zone["name"] == "Midtown Center")
            let outside = try await client.call(.get, "/v1/zones/at?lon=2.35&lat=48.85", token: token)
            #expect(outside.status == .notFound)
            #expect(outside["detail"]?.contains("outside the service area") == true)
            #expect(try await client.call(.get, "/v1/zones/at?lon=east&lat=40.75", token: token).status == .badRequest)
        }
    }

    @Test func aZonesQueuesShowTaxisHeadFirstAndPassengersOldestFirst() async throws {
        let harness = try await APIHarness()
        for taxi in ["T1", "T2"] {
            try await harness.report(.init(taxi))
            try await harness.dispatcher.execute(.login(.init(taxi)))
            try await harness.dispatcher.execute(.setAvailable(.init(taxi)))
            harness.clock.advance(by: .seconds(1))
        }
        let token = try await harness.token(.dispatcher)
        try await harness.test { client in
            let queue = try await client.call(.get, "/v1/zones/161/queue", token: token)
            let taxis = try queue.list("taxis")
            #expect(taxis.map { $0["taxiId"]?.scalarText } == ["T1", "T2"])
            #expect(taxis.map { $0["position"]?.scalarText } == ["1", "2"])
            #expect(try await client.call(.get, "/v1/zones/999/queue", token: token).status == .notFound)

            let nearest = try await client.call(.get, "/v1/zones/nearest-free?lon=-73.985&lat=40.755&limit=3", token: token)
            let zones = try nearest.list()
            #expect(zones.first?["zoneId"]?.scalarText == "161")
            #expect(zones.first?["etaS"]?.scalarText != nil)
            #expect(try await client.call(.get, "/v1/zones/nearest-free?lon=-73.985&lat=40.755&limit=0", token: token).status == .badRequest)
            let offRoad = try await client.call(.get, "/v1/zones/nearest-free?lon=-73.90&lat=40.85", token: token)
            #expect(offRoad.status == .unprocessableContent, "a point far from the road map has no nearest taxi to tell")
            #expect(offRoad["detail"]?.contains("off the road map") == true, "\(offRoad)")

            let fleet = try await client.call(.get, "/v1/fleet", token: token)
            let entries = try fleet.list()
            #expect(entries.map { $0["state"]?.scalarText } == ["available", "available"])
        }
    }

    @Test func anETABetweenTwoPointsAtATime() async throws {
        let harness = try await APIHarness()
        let token = try await harness.token(.partner)
        try await harness.test { client in
            let eta = try await client.call(
                .get, "/v1/eta?from=-73.99,40.75&to=-73.98,40.76&depart=2026-11-23T08:30:00-05:00", token: token)
            #expect(eta.status == .ok)
            #expect((eta.body?["durationS"]?.scalarText).flatMap(Double.init).map { $0 > 0 } == true)
            #expect((eta.body?["distanceM"]?.scalarText).flatMap(Double.init).map { $0 > 500 } == true)
            for field in ["durationS", "distanceM"] {
                let value = try #require((eta.body?[field]?.scalarText).flatMap(Double.init))
                #expect((value * 10).rounded() / 10 == value, "\(field) to a tenth: \(value)")
            }
            #expect(eta["depart"] == "2026-11-23T13:30:00.000Z")
            #expect(try await client.call(.get, "/v1/eta?from=-73.99&to=-73.98,40.76", token: token).status == .badRequest)
            #expect(try await client.call(.get, "/v1/eta?from=2.35,48.85&to=-73.98,40.76", token: token).status == .unprocessableContent)
        }
    }
}

/// Partner apps' questions (SPEC R3, R6, D9): tables, waits, reachability.
@Suite(.timeLimit(.minutes(20))) struct PartnerAPITests {
    @Test func aTableHasARowPerSourceAndNullWhereNoRoute() async throws {
        let harness = try await APIHarness()
        let token = try await harness.token(.partner)
        try await harness.test { client in
            let body = #"{"sources": [{"lon": -73.99, "lat": 40.75}, {"lon": 2.35, "lat": 48.85}], "targets": [{"lon": -73.98, "lat": 40.76}, {"lon": -73.985, "lat": 40.755}], "depart": "2026-11-23T08:30:00-05:00"}"#
            let table = try await client.call(.post, "/v1/eta/table", token: token, json: body)
            #expect(table.status == .ok)
            let rows = try table.list("durationsS")
            #expect(rows.count == 2)
            guard case .array(let first) = rows[0], case .array(let second) = rows[1] else { throw APITestFailure("rows are not arrays") }
            #expect(first.count == 2 && first.allSatisfy { $0 != .null })
            #expect(second == [.null, .null], "a source off the map has no route")
            let tooMany = #"{"sources": [], "targets": [{"lon": -73.98, "lat": 40.76}]}"#
            #expect(try await client.call(.post, "/v1/eta/table", token: token, json: tooMany).status == .badRequest)
        }
    }

    @Test func theWaitAndReachabilityOfAPickup() async throws {
        let harness = try await APIHarness()
        try await harness.report("T1")
        try await harness.dispatcher.execute(.login("T1"))
        try await harness.dispatcher.execute(.setAvailable("T1"))
        let token = try await harness.token(.partner)
        try await harness.test { client in
            let wait = try await client.call(.get, "/v1/waits?lon=-73.985&lat=40.755", token: token)
            #expect(wait["zoneId"] == "161")
            #expect(wait.body?["expectedWaitS"]?.scalarText != nil, "a free taxi in the zone: its drive")
            #expect(try await client.call(.get, "/v1/waits?lon=2.35&lat=48.85", token: token).status == .notFound)

            let base = "/v1/reachability?from=-73.99,40.75&to=-73.98,40.76&leave=2026-09-21T14:00:00Z"
            let easy = try await client.call(.get, base + "&arriveBy=2026-09-21T16:00:00Z", token: token)
            #expect(easy.status == .ok)
            #expect(easy["reachable"] == "true")
            let tight = try await client.call(.get, base + "&arriveBy=2026-09-21T14:00:30Z", token: token)
            #expect(tight["reachable"] == "false")
            #expect(try tight.list("warnings").contains { $0.scalarText?.contains("late by") == true })
            #expect(try await client.call(.get, base, token: token).status == .badRequest, "arriveBy is required")

            // The latest call: calling then arrives by the deadline, within the re-timed drive's rounding.
            #expect(easy["timeZone"] == "GMT")
            #expect(easy["waitSource"] == "live")
            #expect(easy["arrivalLocal"]?.hasPrefix("2026-09-21T14:") == true, "\(easy)")
            let leaveBy = try #require(easy["leaveBy"])
            #expect(leaveBy > "2026-09-21T15:", "two hours ahead leaves time to call later: \(leaveBy)")
            let latest = try await client.call(
                .get, "/v1/reachability?from=-73.99,40.75&to=-73.98,40.76&leave=\(leaveBy)&arriveBy=2026-09-21T16:00:00Z", token: token)
            #expect(latest["reachable"] == "true")
            #expect(abs(Double(latest["marginS"] ?? "") ?? 99) < 60, "calling at leaveBy arrives just in time: \(latest)")
            #expect(!(try easy.list("warnings")).contains { $0.scalarText?.contains("not a forecast") == true }, "a call now: the live wait")
            let ahead = try await client.call(
                .get, "/v1/reachability?from=-73.99,40.75&to=-73.98,40.76&leave=2026-09-23T14:00:00Z&arriveBy=2026-09-23T16:00:00Z",
                token: token)
            #expect(try ahead.list("warnings").contains { $0.scalarText?.contains("not a forecast for 2026-09-23T14:00:00Z") == true },
                    "two days ahead, the answer says the wait is today's: \(ahead)")
        }
    }
}
