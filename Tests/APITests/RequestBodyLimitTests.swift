import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Storage
import Testing
@testable import API

/// A body larger than a route reads is refused as 413 with a problem
/// document, whoever sends it and however large: never a 500.
@Suite(.timeLimit(.minutes(20))) struct RequestBodyLimitTests {
    @Test(arguments: [
        ("/v1/sessions", false, 100 * 1024), ("/v1/sessions", false, 10 * 1024 * 1024), ("/v1/eta/table", true, 300 * 1024),
        ("/v1/passengers", false, 65 * 1024),
    ])
    func aBodyOverTheLimitIs413(path: String, authenticated: Bool, bytes: Int) async throws {
        let harness = try await APIHarness()
        let token = authenticated ? try await harness.token(.partner) : nil
        let body = "{\"padding\": \"" + String(repeating: "x", count: bytes) + "\"}"
        try await harness.test { client in
            let answer = try await client.call(.post, path, token: token, json: body)
            #expect(answer.status == .contentTooLarge, "\(path), \(bytes) bytes: \(answer.status)")
            #expect(answer["detail"]?.contains("larger than the 64 KiB this endpoint reads") == true, "\(answer.body.map { "\($0)" } ?? "")")
        }
    }
}
