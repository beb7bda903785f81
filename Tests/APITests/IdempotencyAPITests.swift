import DispatchCore
import Foundation
import HTTPTypes
import Hummingbird
import MytaxiServer
import HummingbirdTesting
import Storage
import Testing
@testable import API

/// `Idempotency-Key` on the requests that change something (issue 40): a
/// retry with the same key gets the first answer and changes nothing more;
/// the same key with another body, or malformed, is refused; each caller's
/// keys are its own; and a retry whose first answer was never kept still
/// gets the first ride, which the dispatch log remembers by its key.
@Suite(.timeLimit(.minutes(20))) struct IdempotencyAPITests {
    static let replayed = HTTPField.Name("Idempotent-Replayed")!

    @Test func aRetriedRideRequestGetsTheFirstAnswerAndNoSecondRide() async throws {
        let harness = try await APIHarness()
        try await harness.report("T1")
        let passenger = try await harness.token(.passenger)
        let desk = try await harness.token(.dispatcher)
        try await harness.test { client in
            let key = "5b0e8a52-6a0f-4c43-9d0e-1f7b3f0a2c11"
            let first = try await client.call(.post, "/v1/rides", token: passenger, json: RideAPITests.pickup, idempotencyKey: key)
            #expect(first.status == .created)
            #expect(first.headers[Self.replayed] == nil)
            let again = try await client.call(.post, "/v1/rides", token: passenger, json: RideAPITests.pickup, idempotencyKey: key)
            #expect(again.status == .created)
            #expect(again.body == first.body, "the same ride, as first answered")
            #expect(again.headers[.location] == first.headers[.location])
            #expect(again.headers[Self.replayed] == "true")
            #expect(try await client.call(.get, "/v1/rides", token: desk).list().count == 1, "one ride, not two")

            let otherBody = try await client.call(
                .post, "/v1/rides", token: passenger, json: #"{"pickup": {"lon": -73.99, "lat": 40.75}}"#, idempotencyKey: key)
            #expect(otherBody.status == .unprocessableContent)
            #expect(otherBody["detail"]?.contains("used for another request body") == true, "\(otherBody)")

            let unkeyed = try await client.call(.post, "/v1/rides", token: passenger, json: RideAPITests.pickup)
            #expect(unkeyed.status == .conflict, "without a key a second request is a new one: refused while the first is open")

            let phone = #"{"pickup": {"lon": -73.985, "lat": 40.755}, "callerPhone": "+1 212 555 0100"}"#
            let desks = try await client.call(.post, "/v1/rides", token: desk, json: phone, idempotencyKey: key)
            #expect(desks.status == .created, "another caller's same key is its own")
            #expect(desks["rideId"] != first["rideId"])

            let long = try await client.call(
                .post, "/v1/rides", token: passenger, json: RideAPITests.pickup, idempotencyKey: String(repeating: "k", count: 256))
            #expect(long.status == .badRequest)
            #expect(long["detail"]?.contains("'Idempotency-Key' must be 1 to 255 printable ASCII characters") == true)
        }
    }

    /// The node that answered died after writing the ride and before
    /// keeping the answer: the retry is carried out again, and the
    /// dispatcher, which knows the key from its log, gives the first ride.
    @Test func aRetryWhoseAnswerWasNeverKeptGetsTheSameRide() async throws {
        let harness = try await APIHarness()
        try await harness.report("T1")
        let passenger = try await harness.token(.passenger)
        try await harness.test { client in
            let key = "retry-after-a-crash-1"
            let first = try await client.call(.post, "/v1/rides", token: passenger, json: RideAPITests.pickup, idempotencyKey: key)
            #expect(first.status == .created)
            #expect(try await harness.service.stores.idempotentAnswers.forget(answeredBefore: .distantFuture) == 1)
            let retry = try await client.call(.post, "/v1/rides", token: passenger, json: RideAPITests.pickup, idempotencyKey: key)
            #expect(retry.status == .created)
            #expect(retry["rideId"] == first["rideId"])
            #expect(retry.headers[Self.replayed] == nil, "answered anew, from the dispatcher's first decision")
        }
    }

    /// The same window, and the ride has ended before the retry came: the
    /// retry is told how its ride ended, under its first id, and no second
    /// ride is opened.
    @Test func aRetryWhoseRideHasEndedSinceIsToldHowItEnded() async throws {
        let harness = try await APIHarness()
        try await harness.report("T1")
        let passenger = try await harness.token(.passenger)
        let desk = try await harness.token(.dispatcher)
        try await harness.test { client in
            let key = "retry-after-the-ride-ended-1"
            let first = try await client.call(.post, "/v1/rides", token: passenger, json: RideAPITests.pickup, idempotencyKey: key)
            #expect(first.status == .created)
            let ride = try #require(first["rideId"])
            #expect(try await client.call(.delete, "/v1/rides/\(ride)", token: passenger).status == .noContent)
            #expect(try await harness.service.stores.idempotentAnswers.forget(answeredBefore: .distantFuture) == 1)
            let retry = try await client.call(.post, "/v1/rides", token: passenger, json: RideAPITests.pickup, idempotencyKey: key)
            #expect(retry.status == .created, "\(retry)")
            #expect(retry["rideId"] == ride)
            #expect(retry["status"] == "ended")
            #expect(retry["outcome"] == "cancelled")
            #expect(retry.headers[.location] == first.headers[.location])
            #expect(try await client.call(.get, "/v1/rides", token: desk).list().isEmpty, "no second ride opened")
        }
    }

    @Test func aRetriedRegistrationIsAnsweredAsTheFirstAndSendsNoSecondEmail() async throws {
        let harness = try await APIHarness()
        let administrator = try await harness.token(.administrator)
        try await harness.test { client in
            let body = #"{"username": "ann", "email": "ann@example.com", "password": "long-enough-1"}"#
            let first = try await client.call(.post, "/v1/passengers", json: body, idempotencyKey: "register-ann")
            #expect(first.status == .accepted, "\(first)")
            let again = try await client.call(.post, "/v1/passengers", json: body, idempotencyKey: "register-ann")
            #expect(again.status == .accepted)
            #expect(again.body == first.body)
            #expect(again.headers[Self.replayed] == "true")
            let outbox = try await client.call(.get, "/v1/outbox", token: administrator).list()
            #expect(outbox.count == 1, "one confirmation e-mail: \(outbox)")
        }
    }

    @Test func onlyFailuresAfterWhichNothingWasDoneAreCarriedOutAgain() {
        #expect(IdempotencyMiddleware.isKept(.created))
        #expect(IdempotencyMiddleware.isKept(.conflict))
        #expect(!IdempotencyMiddleware.isKept(.serviceUnavailable))
        #expect(!IdempotencyMiddleware.isKept(.tooManyRequests))
        #expect(!IdempotencyMiddleware.isKept(.internalServerError))
    }
}
