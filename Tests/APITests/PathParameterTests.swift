import FixRecords
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import API

/// How a path is read: an id percent-decoded, so a client that encodes it
/// (as it must for a space, a slash or a quote) finds what it named; a
/// method the path does not answer is 405 with the ones it does.
@Suite(.timeLimit(.minutes(20))) struct PathParameterTests {
    @Test func anEncodedIdNamesTheSameThingAsItsText() async throws {
        let harness = try await APIHarness()
        try await harness.report("T1")
        let token = try await harness.token(.dispatcher)
        try await harness.test { client in
            #expect(try await client.call(.get, "/v1/taxis/T1", token: token).status == .ok)
            #expect(try await client.call(.get, "/v1/taxis/T%31", token: token).status == .ok)
            #expect(try await client.call(.get, "/v1/zones/%31%36%31/queue", token: token).status == .ok)
            let quoted = try await client.call(.get, "/v1/taxis/%27%3B%20DROP", token: token)
            #expect(quoted.status == .notFound)
            #expect(quoted["detail"]?.contains("'; DROP") == true, "\(quoted.body.map { "\($0)" } ?? "")")
            #expect(try await client.call(.get, "/v1/taxis/%E0%A4%A", token: token).status == .badRequest)
        }
    }

    /// A path parameter's documented pattern counts: `current` is no ride
    /// id (`R12`), so `/v1/rides/current` takes only what its own path does.
    @Test func anotherMethodOnAKnownPathIs405WithTheAllowedOnes() async throws {
        let harness = try await APIHarness()
        let token = try await harness.token(.dispatcher)
        try await harness.test { client in
            for (method, path, allowed) in [
                (HTTPRequest.Method("TRACE")!, "/v1/fleet", "GET, HEAD"), (.post, "/v1/fleet", "GET, HEAD"),
                (.put, "/v1/reservations/V1", "DELETE, GET, HEAD"), (.delete, "/healthz", "GET, HEAD"),
                (.delete, "/v1/rides/current", "GET, HEAD"), (.post, "/v1/rides/current", "GET, HEAD"),
            ] {
                let answer = try await client.call(method, path, token: token)
                #expect(answer.status == .methodNotAllowed, "\(method) \(path)")
                #expect(answer.headers[.allow] == allowed, "\(method) \(path)")
            }
            #expect(try await client.call(.get, "/v1/nowhere", token: token).status == .notFound)
        }
    }
}
