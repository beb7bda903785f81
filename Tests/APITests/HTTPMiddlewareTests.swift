import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Prometheus
import Storage
import Testing
@testable import API

/// What every answer of the API carries and what every request leaves in
/// `/metrics`, whichever controller answered and however it ended.
@Suite(.timeLimit(.minutes(20))) struct HTTPMiddlewareTests {
    /// Pages, scripts, JSON and problems alike: no content sniffing, and only the service's own scripts.
    @Test func everyAnswerForbidsSniffingAndForeignOrInlineScripts() async throws {
        let folder = try MapAPITests.leafletFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let harness = try await APIHarness(leafletDirectory: folder.path)
        let token = try await harness.token(.dispatcher)
        try await harness.test { client in
            for (uri, bearer) in [
                ("/map", nil), ("/map/map.js", nil), ("/map/leaflet/leaflet.js", nil), ("/healthz", nil), ("/v1/fleet", token),
                ("/v1/fleet", nil), ("/v1/nowhere", token),
            ] {
                let answer = try await client.call(.get, uri, token: bearer)
                #expect(answer.headers[.xContentTypeOptions] == "nosniff", "\(uri) \(answer.status)")
                let policy = answer.headers[.contentSecurityPolicy] ?? ""
                #expect(policy.contains("default-src 'self'"), "\(uri) \(answer.status): \(policy)")
                #expect(policy.contains("script-src 'self';"), "\(uri): no inline or foreign script in \(policy)")
            }
        }
    }

    /// Requests are counted and timed per declared route, method and status.
    @Test func requestsAreCountedAndTimedPerRoute() async throws {
        let harness = try await APIHarness()
        let token = try await harness.token(.dispatcher)
        try await harness.test { client in
            for _ in 0..<3 { _ = try await client.call(.get, "/v1/zones/161/queue", token: token) }
            _ = try await client.call(.get, "/v1/zones/161/queue")
            _ = try await client.call(.get, "/v1/zones/999/queue", token: token)
        }
        let metrics = harness.registry.emitToString()
        #expect(metrics.contains(#"mytaxi_http_requests_total{route="/v1/zones/{zoneId}/queue",method="GET",status="200"} 3"#), "\(metrics)")
        #expect(metrics.contains(#"mytaxi_http_requests_total{route="/v1/zones/{zoneId}/queue",method="GET",status="401"} 1"#))
        #expect(metrics.contains(#"mytaxi_http_requests_total{route="/v1/zones/{zoneId}/queue",method="GET",status="404"} 1"#))
        #expect(metrics.contains(#"mytaxi_http_request_duration_seconds_count{route="/v1/zones/{zoneId}/queue",method="GET",status="200"} 3"#))
    }
}
