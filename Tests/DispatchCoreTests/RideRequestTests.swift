import DispatchCore
import FixRecords
import GeoKit
import Testing
import Zones

/// SPEC D3: immediate requests, offers to the head of the pickup zone's
/// queue, refusals and timeouts, cancellation and acceptance.
@Suite(.timeLimit(.minutes(20))) struct RideRequestTests {
    @Test func aPickupOutsideTheServiceAreaIsRefusedNamingTheReason() throws {
        var harness = DispatchHarness()
        let refused = harness.request("p1", in: nil)
        #expect(refused.id == nil)
        #expect(refused.events == [.requestRefused("p1", reason: .outsideServiceArea(pickup: DispatchHarness.pickup))])
        #expect(RequestRefusal.outsideServiceArea(pickup: DispatchHarness.pickup).description
            == "the pickup -73.9855,40.758 is outside the service area")
        #expect(harness.snapshot.requests.isEmpty)
    }

    @Test func aPassengerHasAtMostOneOpenRequest() throws {
        var harness = DispatchHarness()
        let first = try #require(harness.request("p1", in: "230").id)
        let second = harness.request("p1", in: "161")
        #expect(second.events == [.requestRefused("p1", reason: .passengerHasOpenRequest(first))])
        #expect(harness.snapshot.requests.count == 1)
    }

    @Test func theOfferGoesToTheHeadOfThePickupZoneQueue() throws {
        var harness = DispatchHarness()
        try harness.availableTaxis(["A", "B"], in: "230")
        try harness.availableTaxis(["C"], in: "161")
        let request = harness.request("p1", in: "230")
        let id = try #require(request.id)
        #expect(request.events.contains(.offerMade(id, taxi: "A", expiresAt: harness.now + .seconds(15))))
        #expect(request.events.contains(.taxiLeftQueue("A", zone: "230")))
        #expect(harness.state("A") == .offered(id))
        #expect(harness.queue("230") == ["B"])
    }

    @Test func anOfferTimesOutAfterTheConfiguredTime() throws {
        var harness = DispatchHarness(rules: DispatchRules(offerTimeout: .seconds(8)))
        try harness.availableTaxis(["A", "B"], in: "230")
        let id = try #require(harness.request("p1", in: "230").id)
        #expect(harness.engine.nextDeadline == harness.now + .seconds(8))
        #expect(harness.advance(7).isEmpty)
        let events = harness.advance(1)
        #expect(events.first == .offerTimedOut(id, taxi: "A"))
        #expect(events.offeredTaxis == ["B"])
    }

    @Test func aRefusalOffersTheRequestToTheNextTaxi() throws {
        var harness = DispatchHarness()
        try harness.availableTaxis(["A", "B"], in: "230")
        let id = try #require(harness.request("p1", in: "230").id)
        let events = try harness.engine.refuse("A", now: harness.now)
        #expect(events.first == .offerRefused(id, taxi: "A"))
        #expect(events.contains(.offerMade(id, taxi: "B", expiresAt: harness.now + .seconds(15))))
    }

    /// The tried taxis belong to the request: a taxi that refused is not
    /// asked again, even at the head of a queue.
    @Test func aRequestIsNotOfferedAgainToATaxiThatAlreadyHadIt() throws {
        var harness = DispatchHarness()
        try harness.availableTaxis(["A", "B"], in: "230")
        let id = try #require(harness.request("p1", in: "230").id)
        _ = try harness.engine.refuse("A", now: harness.now)
        let events = try harness.engine.refuse("B", now: harness.now)
        #expect(events.offeredTaxis.isEmpty)
        #expect(events.contains(.passengerQueued(id, zone: "230", position: 1, confirmBy: harness.now + .seconds(30))))
        #expect(harness.queue("230") == ["A", "B"])
        #expect(harness.snapshot.requests[id]?.triedTaxis == ["A", "B"])
        try harness.availableTaxi("C", in: "230")
        #expect(harness.state("C") == .offered(id))
    }

    @Test func acceptanceMakesTheTaxiBusyAndTellsTheTaxiAndTheETA() throws {
        var harness = DispatchHarness()
        try harness.availableTaxis(["A"], in: "230")
        let id = try #require(harness.request("p1", in: "230").id)
        let events = try harness.engine.accept("A", eta: .seconds(180), now: harness.now)
        #expect(events == [
            .offerAccepted(id, taxi: "A", eta: .seconds(180)),
            .driverStateChanged("A", from: .offered(id), to: .busy(id)),
        ])
        #expect(harness.snapshot.requests[id]?.phase == .assigned(taxi: "A", eta: .seconds(180)))
        #expect(harness.engine.nextDeadline == nil, "an accepted offer no longer times out")
    }

    @Test func aCancelledRequestIsNeverOfferedAgain() throws {
        var harness = DispatchHarness()
        let id = try #require(harness.request("p1", in: "230").id)
        #expect(try harness.engine.cancel(id, now: harness.now) == [.requestCancelled(id, reason: .byPassenger)])
        let events = try harness.availableTaxi("A", in: "230")
        #expect(events.offeredTaxis.isEmpty)
        #expect(harness.queue("230") == ["A"])
        #expect(throws: DispatchError.unknownRequest(id)) { try harness.engine.cancel(id, now: harness.now) }
    }

    /// The taxi did nothing wrong: it goes back where it stood.
    @Test func cancellingWithdrawsThePendingOfferAndTheTaxiKeepsItsPlace() throws {
        var harness = DispatchHarness()
        try harness.availableTaxis(["A", "B"], in: "230")
        let id = try #require(harness.request("p1", in: "230").id)
        let events = try harness.engine.cancel(id, now: harness.now)
        #expect(events.prefix(2) == [.offerWithdrawn(id, taxi: "A"), .requestCancelled(id, reason: .byPassenger)])
        #expect(events.contains(.taxiJoinedQueue("A", zone: "230", position: 1)))
        #expect(harness.queue("230") == ["A", "B"])
        #expect(harness.advance(15).isEmpty, "the withdrawn offer does not time out")
    }

    @Test func cancellingAfterAcceptanceFreesTheTaxiAtTheBack() throws {
        var harness = DispatchHarness()
        try harness.availableTaxis(["A", "B"], in: "230")
        let id = try #require(harness.request("p1", in: "230").id)
        _ = try harness.engine.accept("A", eta: .seconds(240), now: harness.now)
        _ = try harness.engine.cancel(id, now: harness.now)
        #expect(harness.queue("230") == ["B", "A"])
        #expect(harness.request("p1", in: "230").id != nil, "the passenger may ask again")
    }

    @Test func aPassengerMayAskAgainOnceTheRequestIsCancelled() throws {
        var harness = DispatchHarness()
        let first = try #require(harness.request("p1", in: "230").id)
        _ = try harness.engine.cancel(first, now: harness.now)
        let second = try #require(harness.request("p1", in: "230").id)
        #expect(second > first)
    }
}
