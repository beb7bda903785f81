import DispatchCore
import FixRecords
import Fleet
import ServiceClock
import Testing
import Zones

/// SPEC D4: with no free taxi, the request waits in the zone's passenger
/// queue, must be confirmed within 30 s, and is served in order.
@Suite(.timeLimit(.minutes(20))) struct PassengerQueueTests {
    @Test func withNoFreeTaxiTheRequestIsQueuedWithItsPosition() throws {
        var harness = DispatchHarness()
        let first = harness.request("p1", in: "230")
        let id1 = try #require(first.id)
        #expect(first.events.last == .passengerQueued(id1, zone: "230", position: 1, confirmBy: harness.now + .seconds(30)))
        let second = harness.request("p2", in: "230")
        let id2 = try #require(second.id)
        #expect(second.events.last == .passengerQueued(id2, zone: "230", position: 2, confirmBy: harness.now + .seconds(30)))
        #expect(harness.snapshot.passengerQueue(in: "230") == [id1, id2])
    }

    @Test func anUnconfirmedRequestIsCancelledAfterThirtySeconds() throws {
        var harness = DispatchHarness()
        let id = try #require(harness.request("p1", in: "230").id)
        #expect(harness.advance(29).isEmpty)
        #expect(harness.advance(1) == [.requestCancelled(id, reason: .notConfirmed)])
        #expect(harness.snapshot.passengerQueue(in: "230").isEmpty && harness.snapshot.requests.isEmpty)
        try harness.availableTaxi("A", in: "230")
        #expect(harness.queue("230") == ["A"], "a cancelled request is not served")
    }

    @Test func theConfirmationTimeoutIsConfigurable() throws {
        var harness = DispatchHarness(rules: DispatchRules(confirmationTimeout: .seconds(60)))
        let id = try #require(harness.request("p1", in: "230").id)
        #expect(harness.advance(59).isEmpty)
        #expect(harness.advance(1) == [.requestCancelled(id, reason: .notConfirmed)])
    }

    @Test func aConfirmedRequestWaitsPastTheDeadline() throws {
        var harness = DispatchHarness()
        let id = try #require(harness.request("p1", in: "230").id)
        harness.advance(10)
        #expect(try harness.engine.confirm(id, now: harness.now) == [.requestConfirmed(id)])
        #expect(try harness.engine.confirm(id, now: harness.now).isEmpty)
        #expect(harness.engine.nextDeadline == nil)
        #expect(harness.advance(3600).isEmpty)
        let events = try harness.availableTaxi("A", in: "230")
        #expect(events.offeredTaxis == ["A"])
    }

    @Test func queuedPassengersAreServedInOrderAsTaxisBecomeAvailable() throws {
        var harness = DispatchHarness()
        let ids = try ["p1", "p2", "p3"].map { passenger -> RideRequestID in
            let id = try #require(harness.request(PassengerID(passenger), in: "230").id)
            _ = try harness.engine.confirm(id, now: harness.now)
            return id
        }
        for (taxi, id) in zip(["A", "B", "C"] as [TaxiID], ids) {
            try harness.availableTaxi(taxi, in: "230")
            #expect(harness.state(taxi) == .offered(id))
        }
        #expect(harness.snapshot.passengerQueue(in: "230").isEmpty)
    }

    @Test func aTaxiDrivingIntoTheZoneServesItsWaitingPassenger() throws {
        var harness = DispatchHarness()
        try harness.availableTaxis(["A"], in: "161")
        let id = try #require(harness.request("p1", in: "230").id)
        harness.fleet(.changedZone("A", from: "161", to: "230", at: harness.clock.now))
        let events = harness.advance(30)
        #expect(events.contains(.offerMade(id, taxi: "A", expiresAt: harness.now + .seconds(15))))
    }

    /// A request refused by every taxi waits again, ahead of newer requests.
    @Test func aRequestPassedOnByEveryTaxiWaitsAheadOfNewerOnes() throws {
        var harness = DispatchHarness()
        try harness.availableTaxis(["A"], in: "230")
        let old = try #require(harness.request("p1", in: "230").id)
        let new = try #require(harness.request("p2", in: "230").id)
        let events = try harness.engine.refuse("A", now: harness.now)
        #expect(events.contains(.offerMade(new, taxi: "A", expiresAt: harness.now + .seconds(15))))
        #expect(harness.snapshot.passengerQueue(in: "230") == [old])
    }
}
