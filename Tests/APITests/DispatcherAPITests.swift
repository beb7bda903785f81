import Accounts
import DispatchService
import FixRecords
import Foundation
import GeoKit
import Hummingbird
import HummingbirdTesting
import ServiceClock
import Storage
import TaxiDispatch
import Testing
@testable import API

/// The dispatcher's reads (SPEC Z2, D2, D4, R3): the zone of a point, a
/// zone's queues, the nearest zones with free taxis, the fleet, an ETA.
@Suite struct DispatcherAPITests {
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
            #expect(eta["depart"] == "2026-11-23T13:30:00.000Z")
            #expect(try await client.call(.get, "/v1/eta?from=-73.99&to=-73.98,40.76", token: token).status == .badRequest)
            #expect(try await client.call(.get, "/v1/eta?from=2.35,48.85&to=-73.98,40.76", token: token).status == .unprocessableContent)
        }
    }
}
