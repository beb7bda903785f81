import DispatchCore
import FixRecords
import Fleet
import ServiceClock
import Testing
import Zones

/// SPEC D2: each zone's FIFO queue of available, non-stale taxis, ordered by
/// the time each became available, fed by the fleet's events.
@Suite(.timeLimit(.minutes(20))) struct ZoneQueueTests {
    @Test func aQueueIsOrderedByTheTimeEachTaxiBecameAvailable() throws {
        var harness = DispatchHarness()
        try harness.availableTaxis(["C", "A", "B"], in: "230")
        #expect(harness.queue("230") == ["C", "A", "B"])
        #expect(harness.snapshot.taxiQueues["230"]?.position(of: "A") == 2)
    }

    @Test func aTaxiThatDrivesIntoAnotherZoneJoinsItsQueueKeepingItsAvailabilityTime() throws {
        var harness = DispatchHarness()
        try harness.availableTaxis(["A", "B"], in: "230")
        try harness.availableTaxis(["C"], in: "161")
        harness.fleet(.changedZone("A", from: "230", to: "161", at: harness.clock.now))
        let events = harness.advance(30)
        #expect(events.contains(.taxiChangedZone("A", from: "230", to: "161")))
        #expect(events.contains(.taxiLeftQueue("A", zone: "230")))
        #expect(events.contains(.taxiJoinedQueue("A", zone: "161", position: 1)))
        #expect(harness.queue("161") == ["A", "C"], "A was available before C, so it goes ahead of C")
        #expect(harness.queue("230") == ["B"])
    }

    @Test func aTaxiOnABorderDoesNotFlipQueuesWithinTheDwell() throws {
        var harness = DispatchHarness()
        try harness.availableTaxis(["A"], in: "230")
        for _ in 0..<5 {
            harness.fleet(.changedZone("A", from: "230", to: "161", at: harness.clock.now))
            #expect(harness.advance(20).isEmpty)
            harness.fleet(.changedZone("A", from: "161", to: "230", at: harness.clock.now))
            #expect(harness.advance(20).isEmpty)
        }
        #expect(harness.queue("230") == ["A"])
        #expect(harness.snapshot.taxis["A"]?.pendingZone == nil, "going back cancels the pending change")
        #expect(harness.engine.nextDeadline == nil)
    }

    @Test func aZoneChangeCountsOnceTheTaxiStayedForTheDwell() throws {
        var harness = DispatchHarness(rules: DispatchRules(zoneDwell: .seconds(10)))
        try harness.availableTaxis(["A"], in: "230")
        harness.fleet(.changedZone("A", from: "230", to: "161", at: harness.clock.now))
        #expect(harness.engine.nextDeadline == harness.now + .seconds(10))
        #expect(harness.advance(9).isEmpty)
        #expect(harness.queue("230") == ["A"])
        harness.advance(1)
        #expect(harness.queue("161") == ["A"] && harness.queue("230").isEmpty)
    }

    @Test func withNoDwellAZoneChangeCountsAtOnce() throws {
        var harness = DispatchHarness(rules: DispatchRules(zoneDwell: .zero))
        try harness.availableTaxis(["A"], in: "230")
        let events = harness.fleet(.changedZone("A", from: "230", to: "161", at: harness.clock.now))
        #expect(events.contains(.taxiJoinedQueue("A", zone: "161", position: 1)))
        #expect(harness.queue("161") == ["A"])
    }

    @Test func aTaxiThatLeavesTheServiceAreaLeavesEveryQueueAndComesBackAtItsPlace() throws {
        var harness = DispatchHarness(rules: DispatchRules(zoneDwell: .zero))
        try harness.availableTaxis(["A", "B"], in: "230")
        harness.fleet(.changedZone("A", from: "230", to: nil, at: harness.clock.now))
        #expect(harness.queue("230") == ["B"])
        harness.fleet(.changedZone("A", from: nil, to: "230", at: harness.clock.now))
        #expect(harness.queue("230") == ["A", "B"])
    }

    @Test func aStaleTaxiLeavesItsQueueAndGetsNoOffer() throws {
        var harness = DispatchHarness()
        try harness.availableTaxis(["A", "B"], in: "230")
        #expect(harness.fleet(.wentStale("A", lastHeard: harness.clock.now)) == [.taxiLeftQueue("A", zone: "230")])
        #expect(harness.state("A") == .available)
        let request = harness.request("p1", in: "230")
        #expect(request.events.offeredTaxis == ["B"])
    }

    @Test func aStaleTaxiRejoinsAtItsOldPlaceWithinTheGrace() throws {
        var harness = DispatchHarness()
        try harness.availableTaxis(["A", "B", "C"], in: "230")
        harness.fleet(.wentStale("A", lastHeard: harness.clock.now))
        harness.advance(600)
        let events = harness.fleet(.cameBack("A", zone: "230", at: harness.clock.now))
        #expect(events == [.taxiJoinedQueue("A", zone: "230", position: 1)])
        #expect(harness.queue("230") == ["A", "B", "C"])
    }

    @Test func aStaleTaxiBackAfterTheGraceRejoinsAtTheBack() throws {
        var harness = DispatchHarness()
        try harness.availableTaxis(["A", "B", "C"], in: "230")
        harness.fleet(.wentStale("A", lastHeard: harness.clock.now))
        harness.advance(601)
        harness.fleet(.cameBack("A", zone: "230", at: harness.clock.now))
        #expect(harness.queue("230") == ["B", "C", "A"])
    }

    @Test func aStaleTaxiComingBackInAnotherZoneJoinsThatQueueAtOnce() throws {
        var harness = DispatchHarness()
        try harness.availableTaxis(["A"], in: "230")
        try harness.availableTaxis(["B"], in: "161")
        harness.fleet(.wentStale("A", lastHeard: harness.clock.now))
        harness.advance(60)
        harness.fleet(.cameBack("A", zone: "161", at: harness.clock.now))
        #expect(harness.queue("161") == ["A", "B"] && harness.queue("230").isEmpty)
    }

    @Test func aRefusalSendsTheTaxiToTheBackOfItsQueue() throws {
        var harness = DispatchHarness()
        try harness.availableTaxis(["A", "B", "C"], in: "230")
        _ = harness.request("p1", in: "230")
        let events = try harness.engine.refuse("A", now: harness.now)
        #expect(events.contains(.taxiJoinedQueue("A", zone: "230", position: 2)))
        #expect(harness.queue("230") == ["C", "A"], "B holds the offer now; A is behind C")
    }

    @Test func anOfferTimeoutSendsTheTaxiToTheBackOfItsQueue() throws {
        var harness = DispatchHarness()
        try harness.availableTaxis(["A", "B", "C"], in: "230")
        _ = harness.request("p1", in: "230")
        let events = harness.advance(15)
        #expect(events.contains(.taxiJoinedQueue("A", zone: "230", position: 2)))
        #expect(harness.queue("230") == ["C", "A"])
    }
}
