import DispatchCore
import FixRecords
import Fleet
import Foundation
import GeoKit
import ServiceClock
import Testing
import Zones

/// SPEC Z4: a new zone set in the running service. Taxis, waiting requests
/// and bookings move to their zones under it at once; what it leaves
/// outside every zone is cancelled and its passenger told.
@Suite(.timeLimit(.minutes(20))) struct ZoneSwapTests {
    typealias Change = ZoneReassignment

    @Test func aQueuedTaxiMovesAtOnceWithoutADwellKeepingItsPlaceInLine() throws {
        var harness = DispatchHarness()
        try harness.availableTaxi("A", in: "161")
        harness.clock.advance(by: .seconds(5))
        try harness.availableTaxi("B", in: "7")
        harness.clock.advance(by: .seconds(5))
        try harness.availableTaxi("C", in: "7")
        let events = harness.engine.replaceZones(Change(taxis: [.init(taxi: "A", zone: "7")], requests: [], reservations: []), now: harness.now)
        #expect(events.contains(.taxiChangedZone("A", from: "161", to: "7")))
        #expect(harness.queue("7") == ["A", "B", "C"], "A became available first, so it leads its new queue")
        #expect(harness.queue("161").isEmpty)
        #expect(harness.snapshot.taxiQueues["161"] == nil, "a zone the set dropped keeps no empty queue")
    }

    @Test func aZoneChangeWithinItsDwellIsForgottenUnderTheNewSet() throws {
        var harness = DispatchHarness()
        try harness.availableTaxi("A", in: "161")
        harness.fleet(.changedZone("A", from: "161", to: "230", at: harness.clock.now))
        #expect(harness.snapshot.taxis["A"]?.pendingZone != nil)
        _ = harness.engine.replaceZones(Change(taxis: [.init(taxi: "A", zone: "161")], requests: [], reservations: []), now: harness.now)
        #expect(harness.snapshot.taxis["A"]?.pendingZone == nil)
        harness.advance(60)
        #expect(harness.queue("161") == ["A"], "the dwell on a zone of the old set does not move the taxi later")
    }

    @Test func aWaitingRequestJoinsItsNewZonesPassengerQueueAndIsOfferedThere() throws {
        var harness = DispatchHarness()
        let id = try #require(harness.request("p1", in: "230").id)
        try harness.availableTaxi("A", in: "161")
        #expect(harness.snapshot.passengerQueue(in: "230") == [id])
        let events = harness.engine.replaceZones(
            Change(taxis: [], requests: [.init(request: id, zone: "161")], reservations: []), now: harness.now)
        #expect(events.offeredTaxis == ["A"])
        #expect(harness.snapshot.requests[id]?.zone == "161")
        #expect(harness.snapshot.passengerQueues.isEmpty)
    }

    @Test func aMovedRequestKeepsItsOrderAndItsConfirmationDeadline() throws {
        var harness = DispatchHarness()
        let moved = try #require(harness.request("p1", in: "230").id)
        harness.advance(10)
        let stayed = try #require(harness.request("p2", in: "161").id)
        _ = harness.engine.replaceZones(
            Change(taxis: [], requests: [.init(request: moved, zone: "161")], reservations: []), now: harness.now)
        #expect(harness.snapshot.passengerQueue(in: "161") == [moved, stayed], "the older request goes first")
        #expect(harness.advance(20) == [.requestCancelled(moved, reason: .notConfirmed)], "30 s after it was opened, not after the swap")
    }

    @Test func aRequestLeftOutsideEveryZoneIsCancelledAndItsTaxiKeepsItsPlace() throws {
        var harness = DispatchHarness()
        try harness.availableTaxi("A", in: "161")
        harness.clock.advance(by: .seconds(1))
        try harness.availableTaxi("B", in: "161")
        let id = try #require(harness.request("p1", in: "161").id)
        #expect(harness.state("A") == .offered(id))
        let events = harness.engine.replaceZones(
            Change(taxis: [], requests: [.init(request: id, zone: nil)], reservations: []), now: harness.now)
        #expect(Array(events.prefix(2)) == [.offerWithdrawn(id, taxi: "A"), .requestCancelled(id, reason: .outsideZones)])
        #expect(harness.snapshot.requests[id] == nil && harness.snapshot.openRequestOfPassenger["p1"] == nil)
        #expect(harness.engine.closedByLastCall.requests.map(\.id) == [id], "its history gets the cancelled request")
        #expect(harness.state("A") == .available)
        #expect(harness.queue("161") == ["A", "B"])
    }

    @Test func aRideUnderWayIsNotTouched() throws {
        var harness = DispatchHarness()
        try harness.availableTaxi("A", in: "161")
        let id = try #require(harness.request("p1", in: "161").id)
        _ = try harness.engine.accept("A", eta: .seconds(60), now: harness.now)
        let change = harness.snapshot.zoneReassignment(coordinates: [:]) { _ in nil }
        #expect(change.requests.isEmpty, "the taxi is on its way: the pickup's zone no longer matters")
        #expect(harness.snapshot.requests[id] != nil)
    }

    @Test func bookingsMoveToTheirNewZoneOrAreCancelledOutsideEveryZone() throws {
        var harness = DispatchHarness()
        let destination = Coordinate(longitude: -73.99, latitude: 40.75)
        let book = { (harness: inout DispatchHarness, passenger: PassengerID) -> ReservationID? in
            harness.engine.reserve(
                passenger: passenger, origin: DispatchHarness.pickup, zone: "230", destination: destination,
                pickupAt: harness.clock.now.addingTimeInterval(3 * 3600), now: harness.now, wall: harness.clock.now
            ).lazy.compactMap { event -> ReservationID? in
                if case .reservationMade(let id, _, _) = event { return id }
                return nil
            }.first
        }
        let kept = try #require(book(&harness, "p1"))
        let dropped = try #require(book(&harness, "p2"))
        let events = harness.engine.replaceZones(
            Change(taxis: [], requests: [], reservations: [.init(reservation: kept, zone: "161"), .init(reservation: dropped, zone: nil)]),
            now: harness.now)
        #expect(events == [.reservationCancelled(dropped, reason: .outsideZones)])
        #expect(harness.snapshot.reservations[kept]?.zone == "161")
        #expect(harness.snapshot.reservations[dropped] == nil)
        #expect(harness.engine.closedByLastCall.reservations.map(\.id) == [dropped])
    }

    @Test func theReassignmentListsOnlyWhatTheNewSetChanges() throws {
        var harness = DispatchHarness()
        try harness.availableTaxi("A", in: "161")
        try harness.availableTaxi("B", in: "7")
        _ = harness.engine.login("silent", now: harness.now)
        let waiting = try #require(harness.request("p1", in: "230").id)
        let east = Coordinate(longitude: -73.9, latitude: 40.75), west = Coordinate(longitude: -74.0, latitude: 40.75)
        let zoneOf = { (point: Coordinate) -> ZoneID? in point.longitude < -73.95 ? "161" : "7" }
        let change = harness.snapshot.zoneReassignment(coordinates: ["A": east, "B": east], zoneOf: zoneOf)
        #expect(change.taxis == [.init(taxi: "A", zone: "7")], "B stays, and the taxi never heard from keeps its zone")
        #expect(change.requests == [.init(request: waiting, zone: "161")], "the pickup is west of -73.95")
        let unchanged = harness.snapshot.zoneReassignment(coordinates: ["A": west, "B": east]) {
            $0 == DispatchHarness.pickup ? "230" : zoneOf($0)
        }
        #expect(unchanged.isEmpty)
    }
}
