import DispatchCore
import DispatchRuntime
import FixRecords
import Fleet
import Foundation
import GeoKit
import Hummingbird
import HummingbirdTesting
import JSONKit
import Storage
import Testing
import Zones
@testable import API

/// Planners publish zone files through the API: validated by the zone
/// engine's rules, every problem listed, nothing half-stored; versions
/// listed, read back and activated.
@Suite(.timeLimit(.minutes(20))) struct ZoneSetsAPITests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let demoZones = packageRoot.appendingPathComponent("Zones/manhattan/zones.geojson")

    /// Two features: one without any id, one whose ring is not closed.
    static let brokenFile = #"""
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "properties": {"name": "no id"},
           "geometry": {"type": "Polygon", "coordinates": [[[-73.99, 40.75], [-73.98, 40.75], [-73.98, 40.76], [-73.99, 40.75]]]}},
          {"type": "Feature", "id": "open", "properties": {"name": "open ring"},
           "geometry": {"type": "Polygon", "coordinates": [[[-73.97, 40.75], [-73.96, 40.75], [-73.96, 40.76], [-73.97, 40.76]]]}}
        ]}
        """#

    @Test func aPlannerUploadsListsReadsAndActivatesAZoneSet() async throws {
        let harness = try await APIHarness()
        let planner = try await harness.token(.planner)
        let geoJSON = try String(contentsOf: Self.demoZones, encoding: .utf8)
        try await harness.test { client in
            let uploaded = try await client.call(.post, "/v1/zone-sets?comment=Midtown%20demo", token: planner, json: geoJSON)
            #expect(uploaded.status == .created)
            #expect(uploaded["version"] == "1")
            #expect(uploaded["zoneCount"] == "69")
            #expect(uploaded["comment"] == "Midtown demo")
            #expect(uploaded["active"] == "false")
            #expect(uploaded.headers[.location] == "/v1/zone-sets/1")

            let listed = try await client.call(.get, "/v1/zone-sets", token: planner)
            #expect(try listed.list("versions").map { $0["version"]?.scalarText } == ["1"])
            let read = try await client.execute(uri: "/v1/zone-sets/1", method: .get, headers: [.authorization: "Bearer \(planner)"])
            #expect(String(buffer: read.body) == geoJSON, "kept byte for byte")
            #expect(read.headers[.contentType] == "application/geo+json")

            let activated = try await client.call(.post, "/v1/zone-sets/1/activation", token: planner)
            #expect(activated["active"] == "true")
            #expect(activated["activatedBy"] == "planner")
            #expect(try await harness.zoneSets.activeVersion()?.version == 1)
            #expect(try await client.call(.post, "/v1/zone-sets/9/activation", token: planner).status == .notFound)
            #expect(try await client.call(.get, "/v1/zone-sets/x", token: planner).status == .badRequest)
        }
    }

    /// Midtown split in two zones; the harness's zone 7 (Astoria) is left out.
    static let splitFile = #"""
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "id": "west", "properties": {"name": "West"},
           "geometry": {"type": "Polygon", "coordinates": [[[-74.0, 40.7], [-73.98, 40.7], [-73.98, 40.8], [-74.0, 40.8], [-74.0, 40.7]]]}},
          {"type": "Feature", "id": "east", "properties": {"name": "East"},
           "geometry": {"type": "Polygon", "coordinates": [[[-73.98, 40.7], [-73.95, 40.7], [-73.95, 40.8], [-73.98, 40.8], [-73.98, 40.7]]]}}
        ]}
        """#

    /// SPEC Z4: activating a version puts it in force at once: the zone of
    /// a point, the taxis' queues, and a waiting request whose pickup the
    /// new set leaves out, cancelled.
    @Test func anActivatedZoneSetIsInForceAtOnce() async throws {
        let harness = try await APIHarness()
        let planner = try await harness.token(.planner)
        let dispatcher = try await harness.token(.dispatcher)
        try await harness.report("T1")
        try await harness.dispatcher.execute(.login("T1"))
        try await harness.dispatcher.execute(.setAvailable("T1"))
        let astoria = Coordinate(longitude: -73.85, latitude: 40.75)
        try await harness.dispatcher.execute(.request("pat", pickup: astoria, zone: "7", destination: nil))
        try await harness.test { client in
            let before = try await client.call(.get, "/v1/zones/at?lon=-73.985&lat=40.755", token: dispatcher)
            #expect(before["zoneId"] == "161")
            let uploaded = try await client.call(.post, "/v1/zone-sets", token: planner, json: Self.splitFile)
            #expect(uploaded.status == .created)
            let activated = try await client.call(.post, "/v1/zone-sets/1/activation", token: planner)
            #expect(activated.status == .ok)
            let after = try await client.call(.get, "/v1/zones/at?lon=-73.985&lat=40.755", token: dispatcher)
            #expect(after["zoneId"] == "west")
            let gone = try await client.call(.get, "/v1/zones/161/queue", token: dispatcher)
            #expect(gone.status == .notFound)
            let drawn = try await client.call(.get, "/v1/zones", token: dispatcher)
            #expect(try drawn.list("features").compactMap { $0["id"]?.scalarText }.sorted() == ["east", "west"], "the map draws the set in force")
        }
        let state = await harness.dispatcher.snapshot
        #expect(state.taxiQueue(in: "west") == ["T1"])
        #expect(state.taxiQueues["161"] == nil)
        #expect(state.requests.isEmpty, "the Astoria pickup is outside the new zones")
        #expect(harness.fleet.latestPosition(of: "T1")?.zoneId == "west")
    }

    /// A version uploaded long ago (no longer among the last uploads kept
    /// as loaded) is loaded from the store when activated.
    @Test func anOlderVersionIsLoadedFromTheStoreWhenActivated() async throws {
        let harness = try await APIHarness()
        let planner = try await harness.token(.planner)
        try await harness.test { client in
            for _ in 0...RecentZoneSets.capacity {
                let uploaded = try await client.call(.post, "/v1/zone-sets", token: planner, json: Self.splitFile)
                #expect(uploaded.status == .created)
            }
            let activated = try await client.call(.post, "/v1/zone-sets/1/activation", token: planner)
            #expect(activated.status == .ok)
            let after = try await client.call(.get, "/v1/zones/at?lon=-73.985&lat=40.755", token: planner)
            #expect(after["zoneId"] == "west")
        }
    }

    @Test func aBrokenFileIsRefusedWithEveryProblemAndNothingIsStored() async throws {
        let harness = try await APIHarness()
        let planner = try await harness.token(.planner)
        try await harness.test { client in
            let refused = try await client.call(.post, "/v1/zone-sets", token: planner, json: Self.brokenFile)
            #expect(refused.status == .unprocessableContent)
            let problems = try refused.list("errors").map { "\($0["field"]?.scalarText ?? ""): \($0["problem"]?.scalarText ?? "")" }
            #expect(problems.count >= 2, "\(problems)")
            #expect(problems.contains { $0.contains("#1") || $0.contains("no id") || $0.contains("id") })
            #expect(problems.contains { $0.hasPrefix("open") })
            #expect(try await harness.zoneSets.versions().isEmpty)
            #expect(try await client.call(.post, "/v1/zone-sets", token: planner, json: "{not json").status == .badRequest)
        }
    }

    @Test func onlyPlannersAndAdministratorsPublishZones() async throws {
        let harness = try await APIHarness()
        try await harness.test { client in
            for role in [Role.dispatcher, .driver, .passenger, .partner] {
                let answer = try await client.call(.get, "/v1/zone-sets", token: try await harness.token(role))
                #expect(answer.status == .forbidden, "\(role)")
            }
            #expect(try await client.call(.get, "/v1/zone-sets", token: try await harness.token(.administrator)).status == .ok)
        }
    }
}
