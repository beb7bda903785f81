import DispatchCore
import FixRecords
import Foundation
import GeoKit
import ServiceClock
import Testing
import Zones

/// SPEC D5: reservations 2 h to 48 h ahead, cancellable until 1 h before,
/// a taxi allocated 10 minutes before the pickup that cannot refuse.
@Suite(.timeLimit(.minutes(20))) struct ReservationTests {
    static let destination = Coordinate(longitude: -73.99, latitude: 40.75)

    /// Books a ride from zone `zone` for `hours` from now; returns its id (nil when refused) and the events.
    func reserve(_ harness: inout DispatchHarness, _ passenger: PassengerID = "p1", in zone: ZoneID? = "230", hoursAhead hours: Double)
        -> (id: ReservationID?, events: [DispatchEvent]) {
        let events = harness.engine.reserve(
            passenger: passenger, origin: DispatchHarness.pickup, zone: zone, destination: Self.destination,
            pickupAt: harness.clock.now.addingTimeInterval(hours * 3600), now: harness.now, wall: harness.clock.now)
        let id = events.lazy.compactMap { event -> ReservationID? in
            if case .reservationMade(let id, _, _) = event { return id }
            return nil
        }.first
        return (id, events)
    }

    @Test func aPickupFrom2To48HoursAheadIsBooked() throws {
        var harness = DispatchHarness()
        let pickupAt = harness.clock.now.addingTimeInterval(3 * 3600)
        let (id, events) = reserve(&harness, hoursAhead: 3)
        #expect(events == [.reservationMade(try #require(id), passenger: "p1", pickupAt: pickupAt)])
        #expect(harness.snapshot.reservations[try #require(id)]?.phase == .booked)
        #expect(reserve(&harness, hoursAhead: 2).id != nil)
        #expect(reserve(&harness, hoursAhead: 48).id != nil)
    }

    @Test func aPickupSoonerThan2HoursOrLaterThan48IsRefusedNamingTheLimit() {
        var harness = DispatchHarness()
        let now = harness.clock.now
        #expect(reserve(&harness, hoursAhead: 1.9).events == [
            .requestRefused("p1", reason: .pickupTooSoon(earliest: now.addingTimeInterval(2 * 3600))),
        ])
        #expect(reserve(&harness, hoursAhead: 48.1).events == [
            .requestRefused("p1", reason: .pickupTooLate(latest: now.addingTimeInterval(48 * 3600))),
        ])
        #expect(reserve(&harness, in: nil, hoursAhead: 3).events == [
            .requestRefused("p1", reason: .outsideServiceArea(pickup: DispatchHarness.pickup)),
        ])
        #expect(harness.snapshot.reservations.isEmpty)
    }

    @Test func aReservationCanBeCancelledUntilOneHourBefore() throws {
        var harness = DispatchHarness()
        let early = try #require(reserve(&harness, hoursAhead: 3).id)
        let late = try #require(reserve(&harness, "p2", hoursAhead: 3).id)
        harness.advance(3600 + 1800)
        #expect(try harness.engine.cancelReservation(early, now: harness.now, wall: harness.clock.now) == [.reservationCancelled(early, reason: .byPassenger)])
        harness.advance(1800 + 1)
        let deadline = harness.clock.now.addingTimeInterval(-1)
        #expect(throws: DispatchError.reservationCancellationTooLate(late, deadline: deadline)) {
            try harness.engine.cancelReservation(late, now: harness.now, wall: harness.clock.now)
        }
        #expect(harness.snapshot.reservations.keys.sorted() == [late])
    }

    @Test func theHeadOfThePickupZoneQueueIsAllocatedTenMinutesBeforeAndCannotRefuse() throws {
        var harness = DispatchHarness()
        try harness.availableTaxis(["A", "B"], in: "230")
        let id = try #require(reserve(&harness, hoursAhead: 2).id)
        #expect(harness.advance(2 * 3600 - 601).isEmpty, "not before 10 minutes ahead")
        let events = harness.advance(1)
        let ride = try #require(harness.snapshot.reservations[id].flatMap { reservation -> RideRequestID? in
            if case .allocated(_, let ride) = reservation.phase { return ride }
            return nil
        })
        #expect(events.first == .reservationAllocated(id, taxi: "A", ride: ride))
        #expect(harness.state("A") == .busy(ride))
        #expect(harness.queue("230") == ["B"])
        #expect(harness.snapshot.requests[ride]?.phase == .assigned(taxi: "A", eta: nil))
        #expect(throws: DispatchError.noPendingOffer("A")) { try harness.engine.refuse("A", now: harness.now) }
        #expect(throws: DispatchError.self) { try harness.engine.cancel(ride, now: harness.now) }
    }

    /// A booking at a meeting point keeps the walk to it, and its ride tells it.
    @Test func aBookingsWalkToItsMeetingPointGoesWithItsRide() throws {
        var harness = DispatchHarness()
        try harness.availableTaxi("A", in: "230")
        let walk = PickupWalk(from: Self.destination, seconds: 120, metres: 150, routed: true)
        let events = harness.engine.reserve(
            passenger: "p1", origin: DispatchHarness.pickup, zone: "230", destination: Self.destination,
            pickupAt: harness.clock.now.addingTimeInterval(2 * 3600), walk: walk, now: harness.now, wall: harness.clock.now)
        guard case .reservationMade(let id, _, _)? = events.first else { Issue.record("not booked: \(events)"); return }
        #expect(harness.snapshot.reservations[id]?.walk == walk)
        harness.advance(2 * 3600 - 600)
        guard case .allocated(_, let ride)? = harness.snapshot.reservations[id]?.phase else { Issue.record("not allocated"); return }
        #expect(harness.snapshot.requests[ride]?.walk == walk)
    }

    @Test func withNoFreeTaxiTheReservationTakesTheNextOneFreeInItsZoneBeforeAnyRequest() throws {
        var harness = DispatchHarness()
        let id = try #require(reserve(&harness, hoursAhead: 2).id)
        harness.advance(2 * 3600 - 600)
        #expect(harness.snapshot.reservations[id]?.phase == .awaitingTaxi)
        let waiting = try #require(harness.request("p2", in: "230").id)
        let events = try harness.availableTaxi("A", in: "230")
        #expect(events.contains { if case .reservationAllocated(id, "A", _) = $0 { true } else { false } })
        #expect(harness.snapshot.requests[waiting]?.phase.taxi == nil, "the booked passenger is served first")
    }

    @Test func theServiceMayAllocateTheNearestFreeTaxiOfAnotherZone() throws {
        var harness = DispatchHarness()
        try harness.availableTaxis(["C"], in: "161")
        let id = try #require(reserve(&harness, hoursAhead: 2).id)
        #expect(throws: DispatchError.reservationNotAwaitingTaxi(id)) { try harness.engine.allocate(id, to: "C", now: harness.now) }
        harness.advance(2 * 3600 - 600)
        #expect(throws: DispatchError.taxiNotFree("Z")) { try harness.engine.allocate(id, to: "Z", now: harness.now) }
        let events = try harness.engine.allocate(id, to: "C", now: harness.now)
        #expect(events.first.map { if case .reservationAllocated(id, "C", _) = $0 { true } else { false } } == true)
        #expect(harness.queue("161").isEmpty)
    }

    @Test func theReservationEndsWithItsRide() throws {
        var harness = DispatchHarness()
        try harness.availableTaxis(["A"], in: "230")
        let id = try #require(reserve(&harness, hoursAhead: 2).id)
        harness.advance(2 * 3600 - 600)
        _ = try harness.engine.arrived("A", now: harness.now)
        _ = try harness.engine.passengerAboard("A", now: harness.now)
        _ = try harness.engine.completed("A", now: harness.now)
        #expect(harness.snapshot.reservations[id] == nil && harness.snapshot.requests.isEmpty)
        #expect(harness.queue("230") == ["A"])
    }

    @Test func theNextReservationDeadlineIsTheEarliestAllocationTime() throws {
        var harness = DispatchHarness()
        #expect(harness.engine.nextReservationDeadline == nil)
        _ = reserve(&harness, hoursAhead: 5)
        _ = reserve(&harness, "p2", hoursAhead: 3)
        #expect(harness.engine.nextReservationDeadline == harness.clock.now.addingTimeInterval(3 * 3600 - 600))
    }
}
