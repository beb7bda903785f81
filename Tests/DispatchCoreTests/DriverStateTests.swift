import DispatchCore
import FixRecords
import Fleet
import ServiceClock
import Testing
import Zones

/// SPEC D1: off duty, unavailable after login, available, offered, busy.
@Suite(.timeLimit(.minutes(20))) struct DriverStateTests {
    @Test func aDriverWhoLogsInIsUnavailableUntilSwitching() throws {
        var harness = DispatchHarness()
        harness.fleet(.appeared("A", zone: "230", at: harness.clock.now))
        #expect(harness.engine.login("A", now: harness.now) == [.driverStateChanged("A", from: .offDuty, to: .unavailable)])
        #expect(harness.queue("230").isEmpty)
        let events = try harness.engine.setAvailable("A", now: harness.now)
        #expect(events.contains(.driverStateChanged("A", from: .unavailable, to: .available)))
        #expect(events.contains(.taxiJoinedQueue("A", zone: "230", position: 1)))
        #expect(harness.queue("230") == ["A"])
    }

    @Test func anOffDutyDriverCannotSwitchToAvailable() {
        var harness = DispatchHarness()
        #expect(throws: DispatchError.notLoggedIn("A")) { try harness.engine.setAvailable("A", now: harness.now) }
        #expect(harness.state("A") == .offDuty)
    }

    @Test func goingUnavailableLeavesTheQueueAndLosesThePlace() throws {
        var harness = DispatchHarness()
        try harness.availableTaxis(["A", "B"], in: "230")
        #expect(try harness.engine.setUnavailable("A", now: harness.now).contains(.taxiLeftQueue("A", zone: "230")))
        #expect(harness.queue("230") == ["B"])
        _ = try harness.engine.setAvailable("A", now: harness.now)
        #expect(harness.queue("230") == ["B", "A"])
    }

    @Test func loggingOutLeavesTheQueue() throws {
        var harness = DispatchHarness()
        try harness.availableTaxi("A", in: "230")
        let events = try harness.engine.logout("A", now: harness.now)
        #expect(events.contains(.taxiLeftQueue("A", zone: "230")))
        #expect(harness.state("A") == .offDuty && harness.queue("230").isEmpty)
    }

    /// A terminal resending a command must not cost the taxi its place.
    @Test func aResentCommandChangesNothing() throws {
        var harness = DispatchHarness()
        try harness.availableTaxis(["A", "B"], in: "230")
        let before = harness.snapshot
        #expect(harness.engine.login("A", now: harness.now).isEmpty)
        #expect(try harness.engine.setAvailable("A", now: harness.now).isEmpty)
        #expect(harness.snapshot == before)
        #expect(harness.queue("230") == ["A", "B"])
    }

    /// Offered and busy drivers must finish what they hold first; the
    /// refused command changes nothing.
    @Test func aDriverHoldingAnOfferOrARideCannotLeave() throws {
        var harness = DispatchHarness()
        try harness.availableTaxi("A", in: "230")
        let request = try #require(harness.request("p1", in: "230").id)
        #expect(harness.state("A") == .offered(request))
        let offered = harness.snapshot
        #expect(throws: DispatchError.offerPending("A", request)) { try harness.engine.logout("A", now: harness.now) }
        #expect(throws: DispatchError.offerPending("A", request)) { try harness.engine.setUnavailable("A", now: harness.now) }
        #expect(harness.snapshot == offered)
        _ = try harness.engine.accept("A", eta: .seconds(240), now: harness.now)
        #expect(harness.state("A") == .busy(request))
        #expect(throws: DispatchError.onRide("A", request)) { try harness.engine.setAvailable("A", now: harness.now) }
        #expect(throws: DispatchError.onRide("A", request)) { try harness.engine.logout("A", now: harness.now) }
    }

    @Test func answeringWithoutAnOfferIsRefused() throws {
        var harness = DispatchHarness()
        try harness.availableTaxi("A", in: "230")
        #expect(throws: DispatchError.noPendingOffer("A")) { try harness.engine.accept("A", eta: .seconds(240), now: harness.now) }
        #expect(throws: DispatchError.noPendingOffer("A")) { try harness.engine.refuse("A", now: harness.now) }
    }
}
