import Foundation
import GeoKit
import HTTPTypes
import HummingbirdTesting
import JSONKit
import Routing
import Storage
import Testing
@testable import API

/// Routes over HTTP (SPEC R3, R5): the line of a route, walking times when
/// the service has a walking graph, and a clear refusal when it has none.
@Suite(.timeLimit(.minutes(20))) struct TravelModesAPITests {
    static let trip = "from=-73.99,40.75&to=-73.98,40.76&depart=2026-11-23T08:30:00-05:00"

    @Test func aRouteIsAGeoJSONLineWithItsTimeDistanceAndSpeeds() async throws {
        let harness = try await APIHarness()
        let token = try await harness.token(.passenger)
        try await harness.test { client in
            let route = try await client.call(.get, "/v1/route?\(Self.trip)", token: token)
            #expect(route.status == .ok)
            #expect(route.headers[.contentType] == "application/geo+json")
            #expect(route.body?["type"]?.scalarText == "Feature")
            guard case .array(let line)? = route.body?["geometry"]?["coordinates"] else { throw APITestFailure("no LineString coordinates") }
            #expect(line.count > 5)
            let properties = route.body?["properties"]
            let eta = try await client.call(.get, "/v1/eta?\(Self.trip)", token: token)
            #expect(properties?["durationS"] == eta.body?["durationS"], "the same trip, the same time")
            #expect(properties?["speeds"]?.scalarText == "profile" && eta["speeds"] == "profile" && eta["mode"] == "car")
            #expect(try await client.call(.get, "/v1/route?from=2.35,48.85&to=-73.98,40.76", token: token).status == .unprocessableContent)
        }
    }

    @Test func walkingNeedsAWalkingGraphAndTakesLongerThanDriving() async throws {
        let without = try await APIHarness()
        let token = try await without.token(.partner)
        try await without.test { client in
            let refused = try await client.call(.get, "/v1/eta?\(Self.trip)&mode=foot", token: token)
            #expect(refused.status == .unprocessableContent)
            #expect(refused["detail"]?.contains("--foot-graph") == true)
            #expect(try await client.call(.get, "/v1/eta?\(Self.trip)&mode=bike", token: token).status == .badRequest)
        }
        let harness = try await APIHarness(footRouter: APIHarness.walkingRouter())
        let walker = try await harness.token(.partner)
        try await harness.test { client in
            let walk = try await client.call(.get, "/v1/eta?\(Self.trip)&mode=foot", token: walker)
            let drive = try await client.call(.get, "/v1/eta?\(Self.trip)", token: walker)
            #expect(walk.status == .ok && walk["mode"] == "foot")
            let walkSeconds = try #require(walk["durationS"].flatMap(Double.init)), driveSeconds = try #require(drive["durationS"].flatMap(Double.init))
            #expect(walkSeconds > driveSeconds * 2, "walking \(walkSeconds) s, driving \(driveSeconds) s")
            let body = #"{"sources": [{"lon": -73.99, "lat": 40.75}], "targets": [{"lon": -73.98, "lat": 40.76}], "mode": "foot"}"#
            let table = try await client.call(.post, "/v1/eta/table", token: walker, json: body)
            #expect(table.status == .ok && table["mode"] == "foot")
        }
    }
}
