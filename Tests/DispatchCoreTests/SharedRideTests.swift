import DispatchCore
import FixRecords
import Fleet
import Foundation
import Testing
import Zones

/// SPEC D10: a shared request served alone starts an itinerary; a matched
/// rider joins it at once; the driver's reports act on one rider's stop at
/// a time; a missing or cancelling rider drops only its own stops; the taxi
/// is free again after its last stop.
@Suite(.timeLimit(.minutes(20))) struct SharedRideTests {
    /// Taxi A (4 seats) took p1's shared request; B waits in zone 230.
    func sharedRide(firstParty: Int = 1) throws -> (DispatchHarness, RideRequestID) {
        var harness = DispatchHarness()
        try harness.availableTaxis(["A", "B"], in: "230")
        let id = try #require(harness.sharedRequest("p1", in: "230", seats: firstParty).id)
        let events = try harness.engine.accept("A", eta: .seconds(240), now: harness.now)
        #expect(events.contains(.itineraryChanged("A", stops: [.init(ride: id, kind: .pickup), .init(ride: id, kind: .dropoff)])))
        return (harness, id)
    }

    @Test func aSharedRequestServedAloneStartsAnItinerary() throws {
        let (harness, id) = try sharedRide()
        #expect(harness.state("A") == .busy(id))
        #expect(harness.snapshot.requests[id]?.sharedRider?.longestRide == .seconds(900), "600 s alone, 50 % more")
        #expect(harness.snapshot.requests[id]?.sharedRider?.latestPickup == harness.now + .seconds(600))
    }

    @Test func aMatchedRiderJoinsTheTaxiAtOnceAndIsToldItsPlannedArrival() throws {
        var (harness, first) = try sharedRide()
        let join = RideSharing.Join(taxi: "A", pickupIndex: 1, dropoffIndex: 3, eta: .seconds(300))
        let (second, events) = harness.sharedRequest("p2", in: "230", join: join)
        let id = try #require(second)
        #expect(Array(events.dropFirst()) == [
            .riderJoined(id, taxi: "A", eta: .seconds(300)),
            .itineraryChanged("A", stops: [
                .init(ride: first, kind: .pickup), .init(ride: id, kind: .pickup), .init(ride: first, kind: .dropoff),
                .init(ride: id, kind: .dropoff),
            ]),
        ])
        #expect(harness.snapshot.requests[id]?.phase == .assigned(taxi: "A", eta: .seconds(300)))
        #expect(harness.queue("230") == ["B"], "B was not offered the shared rider")
    }

    @Test func eachReportActsOnTheNextStopOrTheRiderNamed() throws {
        var (harness, first) = try sharedRide()
        let second = try #require(harness.sharedRequest(
            "p2", in: "230", join: .init(taxi: "A", pickupIndex: 1, dropoffIndex: 2, eta: .seconds(300))).id)
        #expect(try harness.engine.arrived("A", now: harness.now) == [.taxiArrived(first, taxi: "A")])
        var events = try harness.engine.passengerAboard("A", now: harness.now)
        #expect(events.first == .passengerAboard(first, taxi: "A"))
        #expect(harness.state("A") == .busy(second), "busy with the next stop's ride")
        #expect(harness.snapshot.requests[first]?.sharedRider?.pickedUpAt == harness.now)
        #expect(throws: DispatchError.rideStepOutOfOrder("A", .completed)) {
            try harness.engine.completed("A", now: harness.now)
        }
        harness.advance(120)
        events = try harness.engine.passengerAboard("A", rider: second, now: harness.now)
        #expect(events.first == .passengerAboard(second, taxi: "A"))
        events = try harness.engine.completed("A", rider: first, now: harness.now)
        #expect(events.prefix(2) == [
            .rideCompleted(first, taxi: "A"), .itineraryChanged("A", stops: [.init(ride: second, kind: .dropoff)]),
        ])
        #expect(harness.state("A") == .busy(second) && harness.queue("230") == ["B"])
        events = try harness.engine.completed("A", now: harness.now)
        #expect(events.first == .rideCompleted(second, taxi: "A"))
        #expect(events.contains(.itineraryChanged("A", stops: [])))
        #expect(harness.state("A") == .available && harness.queue("230") == ["B", "A"], "free again after the last stop")
        #expect(harness.snapshot.requests.isEmpty)
    }

    /// A rider boarded out of turn rides along to the pickups planned before
    /// its own: refused when those parties would then not fit.
    @Test func aRiderBoardedOutOfTurnMustLeaveRoomForThoseBeforeIt() throws {
        var (harness, first) = try sharedRide(firstParty: 3)
        let second = try #require(harness.sharedRequest(
            "p2", in: "230", seats: 2, join: .init(taxi: "A", pickupIndex: 2, dropoffIndex: 3, eta: .seconds(600))).id)
        let before = harness.snapshot
        #expect(throws: DispatchError.noRoomAboard("A", second)) {
            try harness.engine.passengerAboard("A", rider: second, now: harness.now)
        }
        #expect(harness.snapshot == before)
        _ = try harness.engine.passengerAboard("A", rider: first, now: harness.now)
        _ = try harness.engine.completed("A", rider: first, now: harness.now)
        #expect(try harness.engine.passengerAboard("A", rider: second, now: harness.now).first == .passengerAboard(second, taxi: "A"),
                "once the party of 3 is out, the party of 2 fits")
    }

    @Test func aMissingRiderDropsOnlyItsOwnStops() throws {
        var (harness, first) = try sharedRide()
        let second = try #require(harness.sharedRequest(
            "p2", in: "230", join: .init(taxi: "A", pickupIndex: 0, dropoffIndex: 3, eta: .seconds(60))).id)
        _ = try harness.engine.arrived("A", now: harness.now)
        harness.advance(300)
        let events = try harness.engine.missingClient("A", now: harness.now)
        #expect(events.prefix(2) == [
            .clientMissing(second, taxi: "A"),
            .itineraryChanged("A", stops: [.init(ride: first, kind: .pickup), .init(ride: first, kind: .dropoff)]),
        ])
        #expect(harness.state("A") == .busy(first) && harness.snapshot.requests[first] != nil)
    }

    @Test func aRiderWhoCancelsBeforeBoardingLeavesTheOthersTheirRide() throws {
        var (harness, first) = try sharedRide()
        let second = try #require(harness.sharedRequest(
            "p2", in: "230", join: .init(taxi: "A", pickupIndex: 1, dropoffIndex: 3, eta: .seconds(300))).id)
        _ = try harness.engine.cancel(first, now: harness.now)
        #expect(harness.snapshot.taxis["A"]?.itinerary == [.init(ride: second, kind: .pickup), .init(ride: second, kind: .dropoff)])
        #expect(harness.state("A") == .busy(second))
        _ = try harness.engine.cancel(second, now: harness.now)
        #expect(harness.state("A") == .available && harness.queue("230") == ["B", "A"])
    }

    @Test func aJoinThatNoLongerFitsTheSeatsGoesToTheQueueInstead() throws {
        var (harness, _) = try sharedRide(firstParty: 3)
        let (second, events) = harness.sharedRequest(
            "p2", in: "230", seats: 2, join: .init(taxi: "A", pickupIndex: 1, dropoffIndex: 2, eta: .seconds(300)))
        let id = try #require(second)
        #expect(events.contains(.offerMade(id, taxi: "B", expiresAt: harness.now + .seconds(15))), "3 + 2 seats do not fit in 4")
        #expect(harness.snapshot.taxis["A"]?.itinerary.count == 2)
    }

    @Test func aJoinOfATaxiNotOnASharedRideGoesToTheQueueInstead() throws {
        var harness = DispatchHarness()
        try harness.availableTaxis(["A", "B"], in: "230")
        let alone = try #require(harness.request("p1", in: "230").id)
        _ = try harness.engine.accept("A", eta: .seconds(240), now: harness.now)
        let (second, events) = harness.sharedRequest(
            "p2", in: "230", join: .init(taxi: "A", pickupIndex: 0, dropoffIndex: 1, eta: .seconds(60)))
        #expect(events.contains(.offerMade(try #require(second), taxi: "B", expiresAt: harness.now + .seconds(15))))
        #expect(harness.state("A") == .busy(alone) && harness.snapshot.taxis["A"]?.itinerary == [])
    }

    @Test func replayingTheCommandsGivesTheSameItineraries() throws {
        let commands: [DispatchCommand] = [
            .fleet(.appeared("A", zone: "230", at: .init(timeIntervalSince1970: 0))), .login("A", seats: 4), .setAvailable("A"),
            .request("p1", pickup: DispatchHarness.pickup, zone: "230", destination: DispatchHarness.pickup,
                     sharing: RideSharing(directTrip: .seconds(600))),
            .accept("A", eta: .seconds(200)),
            .request("p2", pickup: DispatchHarness.pickup, zone: "230", destination: DispatchHarness.pickup, seats: 2,
                     sharing: RideSharing(directTrip: .seconds(400), join: .init(taxi: "A", pickupIndex: 1, dropoffIndex: 2, eta: nil))),
            .passengerAboard("A"), .passengerAboard("A", rider: RideRequestID(2)),
        ]
        func replay() throws -> DispatchSnapshot {
            var engine = DispatchEngine()
            for (second, command) in commands.enumerated() {
                _ = try engine.execute(command, now: .seconds(second), wall: .init(timeIntervalSince1970: Double(second)))
            }
            return engine.snapshot
        }
        let snapshot = try replay()
        #expect(snapshot.taxis["A"]?.itinerary.map(\.kind) == [.dropoff, .dropoff])
        #expect(try replay() == snapshot)
    }
}
