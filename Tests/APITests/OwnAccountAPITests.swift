import Accounts
import Foundation
import Hummingbird
import HummingbirdTesting
import JSONKit
import Storage
import Testing
@testable import API

/// A user changes its own password (SPEC A2): the current one is required,
/// the new one must keep the rules, every other session of the account
/// ends while the one that changed it goes on, and the account is told by e-mail.
@Suite(.timeLimit(.minutes(20))) struct OwnAccountAPITests {
    @Test func aPasswordChangeEndsTheOtherSessionsAndIsToldByEmail() async throws {
        let harness = try await APIHarness()
        let phone = try await harness.token(.passenger)
        let laptop = try await harness.token(.passenger)
        let admin = try await harness.token(.administrator)
        try await harness.test { client in
            let wrong = try await client.call(
                .put, "/v1/account/password", token: phone, json: #"{"currentPassword": "not-it-1!", "newPassword": "n3w-pass-word"}"#)
            #expect(wrong.status == .unprocessableContent)
            #expect(wrong["detail"]?.contains("current password") == true)
            let weak = try await client.call(
                .put, "/v1/account/password", token: phone, json: #"{"currentPassword": "\#(APIHarness.password)", "newPassword": "short"}"#)
            #expect(weak.status == .badRequest)
            #expect(try await client.call(.get, "/v1/rides/current", token: laptop).status == .notFound, "nothing changed yet")

            let changed = try await client.call(
                .put, "/v1/account/password", token: phone,
                json: #"{"currentPassword": "\#(APIHarness.password)", "newPassword": "n3w-pass-word"}"#)
            #expect(changed.status == .noContent)
            #expect(try await client.call(.get, "/v1/rides/current", token: phone).status == .notFound, "the session that changed it goes on")
            #expect(try await client.call(.get, "/v1/rides/current", token: laptop).status == .unauthorized, "every other one ends")

            let old = try await client.call(.post, "/v1/sessions", json: #"{"username": "pat", "password": "\#(APIHarness.password)"}"#)
            #expect(old.status == .unauthorized)
            let new = try await client.call(.post, "/v1/sessions", json: #"{"username": "pat", "password": "n3w-pass-word"}"#)
            #expect(new.status == .created)

            let outbox = try await client.call(.get, "/v1/outbox", token: admin).list()
            #expect(outbox.first?["to"]?.scalarText == "pat@example.com")
            #expect(outbox.first?["subject"]?.scalarText == "Your mytaxi password was changed")
            #expect(try await client.call(.put, "/v1/account/password", json: "{}").status == .unauthorized)
        }
    }

    /// Wrong current passwords count as wrong logins do: after five, the
    /// next attempt waits, even with the right password.
    @Test func wrongCurrentPasswordsAreThrottledAsLoginsAre() async throws {
        let harness = try await APIHarness()
        let token = try await harness.token(.passenger)
        try await harness.test { client in
            for attempt in 1...5 {
                let wrong = try await client.call(
                    .put, "/v1/account/password", token: token, json: #"{"currentPassword": "guess-\#(attempt)!", "newPassword": "n3w-pass-word"}"#)
                #expect(wrong.status == .unprocessableContent, "attempt \(attempt)")
            }
            let right = try await client.call(
                .put, "/v1/account/password", token: token,
                json: #"{"currentPassword": "\#(APIHarness.password)", "newPassword": "n3w-pass-word"}"#)
            #expect(right.status == .tooManyRequests)
            #expect(right.headers[.retryAfter] != nil)
            let login = try await client.call(.post, "/v1/sessions", json: #"{"username": "pat", "password": "\#(APIHarness.password)"}"#)
            #expect(login.status == .tooManyRequests, "the same count holds the login back")
        }
    }
}
