import DispatchCore
import FixRecords
import Foundation
import ServiceClock
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

    /// Drivers took 10 s to answer each of five offers made with a free
    /// taxi waiting: the next passenger is told about that much before the
    /// free taxi's drive, and which taxi and drive it is.
    @Test func theDriversUsualTimeToAnswerIsLearnedFromAcceptedOffers() throws {
        var harness = DispatchHarness()
        try Self.driversAnswerInTenSeconds(fiveOffersIn: "230", harness: &harness)
        try harness.availableTaxi("F", in: "230")
        let estimate = try #require(harness.engine.expectedWaitForTaxi(in: "230", now: harness.now))
        #expect(estimate.freeTaxi == "F")
        #expect(estimate.typicalDriveToPickup == .seconds(240))
        // Five answers of 10 s, against one of none: between 8 and 10 s.
        #expect(estimate.untilAccepted > .seconds(8) && estimate.untilAccepted < .seconds(10))
    }

    /// Drivers took 10 s to answer in zone 230; zone 13 has had no ride
    /// yet: its next passenger is told the city's time to answer and
    /// typical drive, not none.
    @Test func aZoneWithoutRidesOfItsOwnIsToldTheCitysTimeToAnswer() throws {
        var harness = DispatchHarness()
        try Self.driversAnswerInTenSeconds(fiveOffersIn: "230", harness: &harness)
        try harness.availableTaxi("F", in: "13")
        let estimate = try #require(harness.engine.expectedWaitForTaxi(in: "13", now: harness.now))
        #expect(estimate.freeTaxi == "F")
        #expect(estimate.typicalDriveToPickup == .seconds(240))
        #expect(estimate.untilAccepted > .seconds(8) && estimate.untilAccepted < .seconds(10))
        #expect(harness.snapshot.waitHistory["13"] == nil)
    }

    /// Five requests in `zone`, each with a free taxi whose driver accepts
    /// after 10 s, told a drive of 240 s.
    static func driversAnswerInTenSeconds(fiveOffersIn zone: ZoneID, harness: inout DispatchHarness) throws {
        for round in 0..<5 {
            let taxi = TaxiID("T\(round)")
            try harness.availableTaxi(taxi, in: zone)
            _ = harness.request(PassengerID("p\(round)"), in: zone)
            harness.clock.advance(by: .seconds(10))
            _ = try harness.engine.accept(taxi, eta: .seconds(240), now: harness.now)
        }
    }

    /// The passengers ahead over the arrival rate said a minute or more,
    /// yet five passengers in a row had their taxi after 20 s: the next one
    /// is told much closer to 20 s than the rate alone says.
    @Test func aQueueThatMovesFasterThanItsArrivalRateIsLearned() throws {
        var harness = DispatchHarness()
        for (index, taxi) in (["A", "B"] as [TaxiID]).enumerated() {
            try harness.availableTaxi(taxi, in: "230")
            _ = harness.request(PassengerID("early\(index)"), in: "230")
            harness.clock.advance(by: .seconds(120))
        }
        for round in 0..<5 {
            _ = harness.request(PassengerID("p\(round)"), in: "230")
            harness.clock.advance(by: .seconds(20))
            let taxi = TaxiID("T\(round)")
            try harness.availableTaxi(taxi, in: "230")
            _ = try harness.engine.accept(taxi, eta: .seconds(200), now: harness.now)
            harness.clock.advance(by: .seconds(100))
        }
        let arrivals = harness.snapshot.recentArrivals["230"] ?? []
        let byRateAlone = (harness.now - arrivals[0]) / arrivals.count
        let told = try #require(harness.engine.expectedTimeToOffer(in: "230", now: harness.now))
        #expect(byRateAlone > .seconds(60))
        #expect(abs((told - .seconds(20)) / .seconds(1)) < abs((byRateAlone - .seconds(20)) / .seconds(1)) / 2)
        #expect(harness.engine.expectedWaitForTaxi(in: "230", now: harness.now)?.typicalDriveToPickup == .seconds(200))
    }

    /// A snapshot the dispatch log kept before the zones' wait history was
    /// recorded still reads, with no history.
    @Test func aSnapshotWithoutWaitHistoryStillReads() throws {
        var harness = DispatchHarness()
        try harness.availableTaxi("A", in: "230")
        _ = harness.request("p1", in: "230")
        harness.clock.advance(by: .seconds(5))
        _ = try harness.engine.accept("A", eta: .seconds(60), now: harness.now)
        #expect(harness.snapshot.waitHistory["230"] != nil)
        var fields = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(harness.snapshot)) as? [String: Any])
        fields["waitHistory"] = nil
        fields["cityWaitHistory"] = nil
        let old = try JSONDecoder().decode(DispatchSnapshot.self, from: JSONSerialization.data(withJSONObject: fields))
        #expect(old.waitHistory.isEmpty && old.cityWaitHistory == ZoneWaitHistory())
        #expect(old.requests == harness.snapshot.requests)
    }
}
