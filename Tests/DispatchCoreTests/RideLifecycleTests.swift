import DispatchCore
import FixRecords
import Fleet
import ServiceClock
import Testing
import Zones

/// SPEC D6: arrived, passenger aboard, completed or missing client; then
/// the taxi is available again in its current zone.
@Suite(.timeLimit(.minutes(20))) struct RideLifecycleTests {
    /// A taxi that accepted `p1`'s request in zone 230, with B waiting there.
    func acceptedRide() throws -> (DispatchHarness, RideRequestID) {
        var harness = DispatchHarness()
        try harness.availableTaxis(["A", "B"], in: "230")
        let id = try #require(harness.request("p1", in: "230").id)
        _ = try harness.engine.accept("A", eta: .seconds(240), now: harness.now)
        return (harness, id)
    }

    @Test func aCompletedRideFreesTheTaxiAtTheBackOfItsCurrentZone() throws {
        var (harness, id) = try acceptedRide()
        #expect(try harness.engine.arrived("A", now: harness.now) == [.taxiArrived(id, taxi: "A")])
        #expect(try harness.engine.passengerAboard("A", now: harness.now) == [.passengerAboard(id, taxi: "A")])
        harness.fleet(.changedZone("A", from: "230", to: "161", at: harness.clock.now))
        harness.advance(600)
        let events = try harness.engine.completed("A", now: harness.now)
        #expect(events.first == .rideCompleted(id, taxi: "A"))
        #expect(events.contains(.taxiJoinedQueue("A", zone: "161", position: 1)))
        #expect(harness.state("A") == .available && harness.snapshot.requests.isEmpty)
        #expect(harness.request("p1", in: "230").id != nil, "the passenger may ask again")
    }

    @Test func aMissingClientCanBeReportedOnlyAfterTheWait() throws {
        var (harness, id) = try acceptedRide()
        #expect(throws: DispatchError.rideStepOutOfOrder("A", .missingClient)) {
            try harness.engine.missingClient("A", now: harness.now)
        }
        _ = try harness.engine.arrived("A", now: harness.now)
        let allowedFrom = harness.now + .seconds(300)
        harness.advance(299)
        #expect(throws: DispatchError.missingClientTooEarly("A", allowedFrom: allowedFrom)) {
            try harness.engine.missingClient("A", now: harness.now)
        }
        harness.advance(1)
        let events = try harness.engine.missingClient("A", now: harness.now)
        #expect(events.first == .clientMissing(id, taxi: "A"))
        #expect(harness.queue("230") == ["B", "A"])
    }

    @Test func rideStepsOutOfOrderAreRefusedAndChangeNothing() throws {
        var (harness, id) = try acceptedRide()
        let before = harness.snapshot
        #expect(throws: DispatchError.rideStepOutOfOrder("A", .completed)) { try harness.engine.completed("A", now: harness.now) }
        #expect(throws: DispatchError.rideStepOutOfOrder("B", .arrived)) { try harness.engine.arrived("B", now: harness.now) }
        #expect(harness.snapshot == before)
        _ = try harness.engine.passengerAboard("A", now: harness.now)
        #expect(throws: DispatchError.rideStepOutOfOrder("A", .arrived)) { try harness.engine.arrived("A", now: harness.now) }
        #expect(throws: DispatchError.rideInProgress(id)) { try harness.engine.cancel(id, now: harness.now) }
    }

    /// D6: on the way, a new ETA is told when it moved by more than 30 s or
    /// the last one is 90 s old; otherwise nothing changes.
    @Test func anETAIsToldAgainWhenItMovesBy30SecondsOrEvery90() throws {
        var (harness, id) = try acceptedRide()
        #expect(try harness.engine.updateETA(id, eta: .seconds(260), now: harness.now) == [], "20 s off the 240 s told")
        #expect(try harness.engine.updateETA(id, eta: .seconds(200), now: harness.now) == [.etaChanged(id, taxi: "A", eta: .seconds(200))])
        harness.advance(60)
        #expect(try harness.engine.updateETA(id, eta: .seconds(180), now: harness.now) == [])
        harness.advance(30)
        #expect(try harness.engine.updateETA(id, eta: .seconds(180), now: harness.now) == [.etaChanged(id, taxi: "A", eta: .seconds(180))])
        _ = try harness.engine.arrived("A", now: harness.now)
        #expect(try harness.engine.updateETA(id, eta: .seconds(10), now: harness.now) == [], "arrived: no more ETAs")
    }
}
