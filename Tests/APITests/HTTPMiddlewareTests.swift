import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Prometheus
import Storage
import Testing
@testable import API

/// What every request leaves in `/metrics`, whichever controller answered
/// and however it ended.
@Suite(.timeLimit(.minutes(2))) struct HTTPMiddlewareTests {
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
