import DispatchCore
import FixRecords
import Fleet
import ServiceClock
import Testing
import Zones

/// The engine as a whole: its deadlines and its snapshot.
@Suite(.timeLimit(.minutes(20))) struct DispatchEngineTests {
    @Test func theNextDeadlineIsTheEarliestPendingTimer() throws {
        var harness = DispatchHarness()
        #expect(harness.engine.nextDeadline == nil)
        try harness.availableTaxis(["A"], in: "230")
        _ = harness.request("p1", in: "230")
        let offerExpiry = harness.now + .seconds(15)
        _ = harness.request("p2", in: "230")
        #expect(harness.engine.nextDeadline == offerExpiry)
        harness.advance(15)
        #expect(harness.engine.nextDeadline == offerExpiry + .seconds(15), "A passed the offer on to p2's request")
    }

    /// Timers due together fire in deadline order, each starting what follows at the tick's time.
    @Test func aLateTickFiresEverythingDueInOrder() throws {
        var harness = DispatchHarness()
        try harness.availableTaxis(["A", "B"], in: "230")
        let id = try #require(harness.request("p1", in: "230").id)
        let events = harness.advance(100)
        #expect(events.filter { if case .offerTimedOut = $0 { true } else { false } } == [.offerTimedOut(id, taxi: "A")])
        #expect(harness.state("B") == .offered(id))
        #expect(harness.engine.nextDeadline == harness.now + .seconds(15))
    }

    /// An engine restored from a snapshot decides exactly as the original.
    @Test func anEngineRestoredFromItsSnapshotDecidesTheSame() throws {
        var harness = DispatchHarness()
        try harness.availableTaxis(["A", "B", "C"], in: "230")
        let id = try #require(harness.request("p1", in: "230").id)
        _ = harness.request("p2", in: "161")
        harness.fleet(.changedZone("C", from: "230", to: "161", at: harness.clock.now))
        var restored = DispatchEngine(rules: harness.engine.rules, restoring: harness.snapshot)
        #expect(restored.snapshot == harness.snapshot)
        #expect(restored.nextDeadline == harness.engine.nextDeadline)
        harness.clock.advance(by: .seconds(30))
        #expect(restored.tick(now: harness.now, wall: harness.clock.now) == harness.engine.tick(now: harness.now, wall: harness.clock.now))
        #expect(try restored.refuse("B", now: harness.now) == harness.engine.refuse("B", now: harness.now))
        #expect(restored.snapshot == harness.snapshot)
        #expect(harness.snapshot.requests[id]?.triedTaxis == ["A", "B"])
    }
}
