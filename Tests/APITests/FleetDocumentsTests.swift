import DispatchCore
import DispatchRuntime
import FixRecords
import GeoKit
import HTTPTypes
import JSONKit
import ServiceClock
import Storage
import Testing
import Zones
@testable import API

/// The fleet's documents are answered again within a second, but never
/// after a change that the push sockets tell: a dispatcher who was told of
/// a new zone set or a driver's new state reads it in the next answer.
/// The clock stands still here, so only the change can make a document new.
@Suite(.timeLimit(.minutes(20))) struct FleetDocumentsTests {
    @Test func aZoneSetPutInForceShowsInTheNextFleetDocument() async throws {
        let harness = try await APIHarness()
        try await harness.report("T1")
        let token = try await harness.token(.dispatcher)
        try await harness.test { client in
            let before = try await client.call(.get, "/v1/fleet", token: token).list()
            #expect(before.first?["position"]?["zoneId"]?.scalarText == "161")
            #expect(try await client.call(.get, "/v1/zones/161/taxis", token: token).list("taxis").count == 1)

            let whole = BoundingBox(minX: -74.1, minY: 40.6, maxX: -73.7, maxY: 40.9)
            let index = try ZoneIndex(zoneSet: ZoneSet(zones: [Zone(id: "city", name: "City", geometry: .rectangle(whole))]))
            await harness.zoneSwitch.switchTo(index, version: nil, from: "a test")

            let after = try await client.call(.get, "/v1/fleet", token: token).list()
            #expect(after.first?["position"]?["zoneId"]?.scalarText == "city")
            #expect(try await client.call(.get, "/v1/zones/city/taxis", token: token).list("taxis").count == 1)
        }
    }

    @Test func aDriversNewStateShowsInTheNextFleetDocument() async throws {
        let harness = try await APIHarness()
        try await harness.report("T1")
        let token = try await harness.token(.dispatcher)
        try await harness.test { client in
            let before = try await client.call(.get, "/v1/fleet", token: token).list()
            #expect(before.first?["state"]?.scalarText == "offDuty")
            try await harness.dispatcher.execute(.login("T1"))
            try await harness.dispatcher.execute(.setAvailable("T1"))
            let after = try await client.call(.get, "/v1/fleet", token: token).list()
            #expect(after.first?["state"]?.scalarText == "available")
        }
    }

    @Test func positionsAloneAreAnsweredFromTheDocumentOfTheSameSecond() async throws {
        let harness = try await APIHarness()
        try await harness.report("T1")
        let token = try await harness.token(.dispatcher)
        try await harness.test { client in
            let first = try await client.call(.get, "/v1/fleet", token: token).list()
            harness.clock.advance(by: .milliseconds(500))
            try await harness.report("T1", at: Coordinate(longitude: -73.98, latitude: 40.76))
            #expect(try await client.call(.get, "/v1/fleet", token: token).list() == first, "the same second's document")
            harness.clock.advance(by: .milliseconds(500))
            let later = try await client.call(.get, "/v1/fleet", token: token).list()
            #expect(later.first?["position"]?["lon"]?.scalarText == "-73.98")
        }
    }
}
