import DispatchCore
import FixRecords
import Foundation
import GeoKit
import Hummingbird
import HummingbirdTesting
import JSONKit
import Places
import ServiceClock
import Storage
import Testing
@testable import API

/// Addresses over the API: searching and naming places, and ride requests
/// and reservations that give an address instead of a point.
@Suite(.timeLimit(.minutes(20))) struct PlacesAPITests {
    static func at(_ east: Double, _ north: Double) -> Coordinate { APIHarness.midtown.offset(eastMetres: east, northMetres: north) }

    /// Houses along `W 3 St` east of the harness's Midtown point, two cafés
    /// of one name 2 km apart, and the street itself.
    static let places = PlaceIndex(catalog: PlaceCatalog(
        places: (1...20).map { Place(kind: .address, houseNumber: "\($0 * 2)", street: "West 3rd Street", city: "New York",
                                     coordinate: at(Double($0) * 20, 0)) }
            + [Place(kind: .place, name: "Joe's Coffee", category: "amenity=cafe", coordinate: at(0, 300)),
               Place(kind: .place, name: "Joe's Coffee", category: "amenity=cafe", coordinate: at(0, 2_300)),
               Place(kind: .place, name: "Central Station", category: "railway=station", coordinate: at(200, 200))],
        streets: [Street(name: "West 3rd Street", lines: [[at(-100, 0), at(500, 0)]])]))

    @Test func aTypedAddressIsSuggestedAsItIsTyped() async throws {
        let harness = try await APIHarness(places: Self.places)
        let token = try await harness.token(.passenger)
        try await harness.test { client in
            let answer = try await client.call(.get, "/v1/places?q=10%20w%203rd%20s&limit=3", token: token)
            #expect(answer.status == .ok)
            let first = try #require(try answer.list("places").first)
            #expect(first["label"]?.scalarText == "10 West 3rd Street, New York")
            #expect(first["kind"]?.scalarText == "address")
            #expect(first["houseNumber"]?.scalarText == "10")
            #expect(try answer.list("places").count <= 3)
        }
    }

    @Test func nearRanksEqualMatchesAndIsTold() async throws {
        let harness = try await APIHarness(places: Self.places)
        let token = try await harness.token(.dispatcher)
        let far = Self.at(0, 2_300)
        try await harness.test { client in
            let answer = try await client.call(.get, "/v1/places?q=joes%20coffee&near=\(far.longitude),\(far.latitude)", token: token)
            let first = try #require(try answer.list("places").first)
            #expect(first["distanceMetres"]?.scalarText == "0")
        }
    }

    @Test func aPointIsNamedByItsAddress() async throws {
        let harness = try await APIHarness(places: Self.places)
        let token = try await harness.token(.driver)
        let point = Self.at(41, 5)
        try await harness.test { client in
            let answer = try await client.call(.get, "/v1/places/reverse?lon=\(point.longitude)&lat=\(point.latitude)", token: token)
            #expect(answer.status == .ok)
            #expect(answer["houseNumber"] == "4")
            #expect(answer["label"] == "4 West 3rd Street, New York")
            let nowhere = try await client.call(.get, "/v1/places/reverse?lon=-73.5&lat=40.9", token: token)
            #expect(nowhere.status == .notFound)
        }
    }

    @Test func badQueriesAndMissingTokensAreRefused() async throws {
        let harness = try await APIHarness(places: Self.places)
        let token = try await harness.token(.passenger)
        try await harness.test { client in
            let refused: [(String, String?, HTTPResponse.Status)] = [
                ("/v1/places?q=x", nil, .unauthorized), ("/v1/places", token, .badRequest),
                ("/v1/places?q=x&limit=0", token, .badRequest), ("/v1/places?q=x&near=east", token, .badRequest),
                ("/v1/places/reverse?lon=1", token, .badRequest),
            ]
            for (uri, bearer, status) in refused {
                let answer = try await client.call(.get, uri, token: bearer)
                #expect(answer.status == status, "\(uri)")
            }
        }
    }

    @Test func aServiceWithoutPlacesSaysSoAndHowToMendIt() async throws {
        let harness = try await APIHarness()
        let token = try await harness.token(.passenger)
        try await harness.test { client in
            let search = try await client.call(.get, "/v1/places?q=broadway", token: token)
            #expect(search.status == .unprocessableContent)
            #expect(search["detail"]?.contains("mytaxi graph build") == true)
            let ride = try await client.call(.post, "/v1/rides", token: token, json: #"{"pickup": {"address": "10 W 3rd St"}}"#)
            #expect(ride.status == .unprocessableContent)
        }
    }

    @Test func aRideAskedByAddressGoesThereAndEchoesWhatWasUnderstood() async throws {
        let harness = try await APIHarness(places: Self.places)
        try await harness.report("T1")
        let desk = try await harness.token(.dispatcher)
        try await harness.test { client in
            let asked = try await client.call(.post, "/v1/rides", token: desk, json: """
                {"pickup": {"address": "10 w 3rd street"}, "destination": {"address": "Central Station"}, "callerPhone": "+1 212 555 0100"}
                """)
            #expect(asked.status == .created)
            #expect(asked["pickupAddress"] == "10 West 3rd Street, New York")
            #expect(asked["destinationAddress"] == "Central Station")
            let lon = try #require(asked.body?["pickup"]?["lon"].flatMap { Double($0.scalarText ?? "") })
            let lat = try #require(asked.body?["pickup"]?["lat"].flatMap { Double($0.scalarText ?? "") })
            #expect(Coordinate(longitude: lon, latitude: lat).haversineDistance(to: Self.at(100, 0)) < 60)
        }
    }

    @Test func anUnknownOrAmbiguousAddressIsRefusedWithTheCandidates() async throws {
        let harness = try await APIHarness(places: Self.places)
        let token = try await harness.token(.passenger)
        try await harness.test { client in
            let ambiguous = try await client.call(.post, "/v1/rides", token: token, json: #"{"pickup": {"address": "Joe's Coffee"}}"#)
            #expect(ambiguous.status == .unprocessableContent)
            #expect(ambiguous["detail"]?.contains("names 2 places") == true)
            let candidates = try ambiguous.list("candidates")
            #expect(candidates.count == 2)
            let unknown = try await client.call(.post, "/v1/rides", token: token, json: #"{"pickup": {"address": "Nowhere Plaza"}}"#)
            #expect(unknown.status == .unprocessableContent)
            #expect(unknown["detail"]?.contains("no place in the city matches 'Nowhere Plaza'") == true)
            let missing = try await client.call(.post, "/v1/rides", token: token, json: #"{"pickup": {"address": "99 West 3rd Street"}}"#)
            #expect(missing.status == .unprocessableContent)
            let closest = try missing.list("candidates").first
            #expect(closest?["note"]?.scalarText?.contains("number 99 is not on West 3rd Street") == true)
            let both = try await client.call(.post, "/v1/rides", token: token,
                                             json: #"{"pickup": {"address": "10 W 3rd St", "lon": -73.98, "lat": 40.75}}"#)
            #expect(both.status == .badRequest)
        }
    }

    @Test func aReservationTakesAddressesToo() async throws {
        let harness = try await APIHarness(places: Self.places)
        let token = try await harness.token(.passenger)
        let pickupAt = ISO8601DateFormatter().string(from: harness.clock.now.addingTimeInterval(3 * 3600))
        try await harness.test { client in
            let booked = try await client.call(.post, "/v1/reservations", token: token, json: """
                {"pickup": {"address": "20 West 3rd Street"}, "destination": {"lon": -73.98, "lat": 40.76}, "pickupAt": "\(pickupAt)"}
                """)
            #expect(booked.status == .created)
            #expect(booked["pickupAddress"] == "20 West 3rd Street, New York")
            #expect(booked["destinationAddress"] == nil)
        }
    }
}
