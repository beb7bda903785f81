import Foundation
import GeoKit
import HTTPTypes
import JSONKit
import Storage
import Testing
@testable import API

/// 400 means the request breaks the published document; a request that
/// keeps to it but cannot be done is a 422 whose detail names the problem:
/// a window in the wrong order or too long, a cursor the service did not
/// give, a rule of the role, an unknown confirmation token, too many pairs.
@Suite(.timeLimit(.minutes(20))) struct UnprocessableRequestTests {
    @Test func historyWindowsInTheWrongOrderOrTooLongAre422() async throws {
        let harness = try await APIHarness()
        let planner = try await harness.token(.planner)
        try await harness.test { client in
            let reversed = try await client.call(
                .get, "/v1/taxis/T1/distance?from=2026-09-21T15:00:00Z&to=2026-09-21T14:00:00Z", token: planner)
            #expect(reversed.status == .unprocessableContent)
            #expect(reversed["detail"]?.contains("'from' (2026-09-21T15:00:00Z) is after 'to'") == true, "\(reversed)")
            let tooLong = try await client.call(
                .get, "/v1/taxis/T1/fixes?from=2026-09-01T00:00:00Z&to=2026-09-21T00:00:00Z", token: planner)
            #expect(tooLong.status == .unprocessableContent)
            #expect(tooLong["detail"]?.contains("--history-max-days") == true, "\(tooLong)")
            let notATime = try await client.call(.get, "/v1/taxis/T1/track?from=yesterday&to=2026-09-21T14:00:00Z", token: planner)
            #expect(notATime.status == .badRequest, "a time that is not one breaks the document")
        }
    }

    /// A cursor that is not base64url breaks the document's pattern (400);
    /// one that is but that the service did not write is a 422.
    @Test func aForeignCursorIs422AndAMalformedOne400() async throws {
        let harness = try await APIHarness()
        let planner = try await harness.token(.planner)
        try await harness.test { client in
            let window = "from=2026-09-21T14:00:00Z&to=2026-09-21T15:00:00Z"
            for path in ["/v1/taxis/T1/fixes", "/v1/zones/161/fixes"] {
                let foreign = try await client.call(.get, "\(path)?\(window)&cursor=AAAA", token: planner)
                #expect(foreign.status == .unprocessableContent, "\(path): \(foreign)")
                #expect(foreign["detail"]?.contains("not a cursor this service gave") == true, "\(path): \(foreign)")
                for malformed in ["", "A", "%21%21", "AAAA%3D"] {
                    let answer = try await client.call(.get, "\(path)?\(window)&cursor=\(malformed)", token: planner)
                    #expect(answer.status == .badRequest, "\(path) cursor '\(malformed)': \(answer)")
                    #expect(answer["detail"]?.contains("base64url") == true, "\(path): \(answer)")
                }
            }
        }
    }

    /// Well-formed fields that the role rules out are a 422 listing each;
    /// with a malformed field besides, the request breaks the document: 400, every problem listed.
    @Test func accountFieldsTheRoleRulesOutAre422() async throws {
        let harness = try await APIHarness()
        let admin = try await harness.token(.administrator)
        try await harness.test { client in
            let noEmail = try await client.call(
                .post, "/v1/accounts", token: admin, json: #"{"role": "passenger", "username": "walkin", "password": "s3cret-pass"}"#)
            #expect(noEmail.status == .unprocessableContent)
            #expect(noEmail["detail"] == "a passenger needs an e-mail address")
            #expect(try noEmail.list("errors").map { $0["field"]?.scalarText } == ["email"])
            let taxiForDesk = try await client.call(
                .post, "/v1/accounts", token: admin,
                json: #"{"role": "dispatcher", "username": "desk2", "password": "s3cret-pass", "taxiId": "T2"}"#)
            #expect(taxiForDesk.status == .unprocessableContent)
            #expect(taxiForDesk["detail"] == "only a driver has a taxi, not a dispatcher")
            let alsoMalformed = try await client.call(
                .post, "/v1/accounts", token: admin,
                json: #"{"role": "dispatcher", "username": "desk2", "password": "no-digits!", "taxiId": "T2"}"#)
            #expect(alsoMalformed.status == .badRequest)
            #expect(try alsoMalformed.list("errors").map { $0["field"]?.scalarText } == ["password", "taxi"])
        }
    }

    @Test func anUnknownConfirmationTokenIs422() async throws {
        let harness = try await APIHarness()
        try await harness.test { client in
            let answer = try await client.call(.post, "/v1/passengers/confirmations", json: #"{"token": "c29tZXRoaW5n"}"#)
            #expect(answer.status == .unprocessableContent)
            #expect(answer["detail"]?.contains("unknown, already used or expired") == true, "\(answer)")
        }
    }

    /// `callerPhone` is required of a dispatcher and refused from a
    /// passenger (422); one that is not a phone number breaks the document (400).
    @Test func callerPhoneFollowsTheRole() async throws {
        let harness = try await APIHarness()
        let dispatcher = try await harness.token(.dispatcher)
        let passenger = try await harness.token(.passenger)
        let pickup = #""pickup": {"lon": -73.985, "lat": 40.755}"#
        try await harness.test { client in
            let none = try await client.call(.post, "/v1/rides", token: dispatcher, json: "{\(pickup)}")
            #expect(none.status == .unprocessableContent)
            #expect(none["detail"]?.contains("'callerPhone' is required for a dispatcher's request") == true, "\(none)")
            let fromPassenger = try await client.call(.post, "/v1/rides", token: passenger, json: #"{\#(pickup), "callerPhone": "212 555 0100"}"#)
            #expect(fromPassenger.status == .unprocessableContent)
            #expect(fromPassenger["detail"]?.contains("'callerPhone' is for dispatchers") == true, "\(fromPassenger)")
            let notAPhone = try await client.call(.post, "/v1/rides", token: dispatcher, json: #"{\#(pickup), "callerPhone": "call me"}"#)
            #expect(notAPhone.status == .badRequest)
            #expect(notAPhone["detail"]?.contains("3 to 32 digits") == true, "\(notAPhone)")
        }
    }

    @Test func aTableOfMorePairsThanAllowedIs422() async throws {
        let harness = try await APIHarness()
        let token = try await harness.token(.partner)
        let point = #"{"lon": -73.985, "lat": 40.755}"#
        let body = #"{"sources": [\#(Array(repeating: point, count: 101).joined(separator: ","))], "targets": [\#(Array(repeating: point, count: 100).joined(separator: ","))]}"#
        try await harness.test { client in
            let answer = try await client.call(.post, "/v1/eta/table", token: token, json: body)
            #expect(answer.status == .unprocessableContent)
            #expect(answer["detail"]?.contains("10100 pairs, more than the 10000") == true, "\(answer)")
        }
    }
}
