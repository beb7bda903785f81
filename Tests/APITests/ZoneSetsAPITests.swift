import Foundation
import GeoKit
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import API

/// Planners publish zone files through the API: validated by the zone
/// engine's rules, every problem listed, nothing half-stored; versions
/// listed, read back and activated.
@Suite struct ZoneSetsAPITests {
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
