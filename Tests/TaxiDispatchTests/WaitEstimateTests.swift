import FixRecords
import ServiceClock
import TaxiDispatch
import Testing
import Zones

/// SPEC D4, D9: the expected time until a request is offered a taxi.
@Suite(.timeLimit(.minutes(20))) struct WaitEstimateTests {
    @Test func withAFreeTaxiTheOfferIsImmediate() throws {
        var harness = DispatchHarness()
        try harness.availableTaxis(["A"], in: "230")
        #expect(harness.engine.expectedTimeToOffer(in: "230", now: harness.now) == .zero)
    }

    @Test func withoutAnyArrivalThereIsNoEstimate() {
        let harness = DispatchHarness()
        #expect(harness.engine.expectedTimeToOffer(in: "230", now: harness.now) == nil)
    }

    /// Taxis became free in 230 every 60 s; two passengers wait: the next
    /// request is third in line, three arrivals away.
    @Test func theWaitFollowsThePassengersAheadAndTheRecentArrivalRate() throws {
        var harness = DispatchHarness()
        for (index, taxi) in (["A", "B", "C"] as [TaxiID]).enumerated() {
            try harness.availableTaxi(taxi, in: "230")
            _ = harness.request(PassengerID("early\(index)"), in: "230")
            harness.clock.advance(by: .seconds(60))
        }
        _ = harness.request("p1", in: "230")
        _ = harness.request("p2", in: "230")
        #expect(harness.snapshot.passengerQueue(in: "230").count == 2)
        // Three arrivals over the 180 s since the first: one per 60 s.
        #expect(harness.engine.expectedTimeToOffer(in: "230", now: harness.now) == .seconds(180))
        #expect(harness.engine.expectedTimeToOffer(in: "230", position: 1, now: harness.now) == .seconds(60))
    }
}
