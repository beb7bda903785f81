import DispatchCore
import DispatchRuntime
import FixRecords
import Foundation
import GeoKit
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JSONKit
import Storage
import Testing
import Zones
@testable import API

/// GET /v1/waits suggests the nearby zones where walking there gets a taxi
/// sooner than waiting where one stands (CLup's suggestion): the zone, where
/// to go, the walk and the wait; none where no zone near is sooner.
@Suite(.timeLimit(.minutes(20))) struct ShorterWaitsAPITests {
    @Test func aPassengerWithNoFreeTaxiInTheZoneIsToldOfTheNextZoneOneWithAWalk() async throws {
        let harness = try await APIHarness()
        let west = Zone(id: "W", name: "West side", geometry: try .rectangle(BoundingBox(minX: -74, minY: 40.7, maxX: -73.982, maxY: 40.8)))
        let east = Zone(id: "E", name: "East side", geometry: try .rectangle(BoundingBox(minX: -73.982, minY: 40.7, maxX: -73.9, maxY: 40.8)))
        await harness.zoneSwitch.switchTo(try ZoneIndex(zoneSet: ZoneSet(zones: [west, east])), version: nil, from: "a test")
        try await harness.report("T1", at: Coordinate(longitude: -73.9805, latitude: 40.7560), zone: "E")
        try await harness.dispatcher.execute(.login("T1"))
        try await harness.dispatcher.execute(.setAvailable("T1"))
        let passenger = try await harness.token(.passenger)
        try await harness.test { client in
            let here = try await client.call(.get, "/v1/waits?lon=-73.9830&lat=40.7560", token: passenger)
            #expect(here["zoneId"] == "W")
            #expect(here.body?["expectedWaitS"] == nil, "no free taxi in the west zone")
            guard case .array(let shorter)? = here.body?["shorterWaits"], let first = shorter.first else {
                throw APITestFailure("no shorter wait suggested: \(here)")
            }
            #expect(shorter.count == 1)
            #expect(first["zoneId"]?.scalarText == "E" && first["name"]?.scalarText == "East side")
            let lon = try #require(first["lon"]?.scalarText.flatMap(Double.init))
            #expect(lon > -73.982, "the stop is in the east zone")
            let walk = try #require(first["walkM"]?.scalarText.flatMap(Double.init))
            #expect((150...400).contains(walk), "a short walk east: \(walk) m")
            let total = try #require(first["totalS"]?.scalarText.flatMap(Double.init))
            let parts = try #require(first["walkS"]?.scalarText.flatMap(Double.init)).advanced(
                by: try #require(first["expectedWaitS"]?.scalarText.flatMap(Double.init)))
            #expect(abs(total - parts) < 0.2, "the total is the walk and the wait")

            let there = try await client.call(.get, "/v1/waits?lon=-73.9805&lat=40.7565", token: passenger)
            #expect(there["zoneId"] == "E")
            guard case .array(let none)? = there.body?["shorterWaits"] else { throw APITestFailure("no shorterWaits: \(there)") }
            #expect(none.isEmpty, "nothing near is sooner than the free taxi here")
        }
    }
}
