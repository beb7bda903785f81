import DispatchCore
import DispatchRuntime
import FixRecords
import Fleet
import Foundation
import GeoKit
import ServiceClock
import Storage
import Testing
import Zones

/// Fixed driving times per taxi, whatever the pickup.
struct FixedETAs: PickupETAs {
    let seconds: [TaxiID: Int]

    func etas(from taxis: [TaxiID], to pickup: Coordinate, depart: Date) -> [Duration?] {
        taxis.map { taxi in seconds[taxi].map { Duration.seconds($0) } }
    }
}

/// Fixed positions per taxi.
struct FixedPositions: TaxiPositions {
    let positions: [TaxiID: Coordinate]

    func position(of taxi: TaxiID) -> Coordinate? { positions[taxi] }
}

/// The dispatcher's use of the router's ETAs (SPEC D3–D6).
@Suite(.timeLimit(.minutes(20))) struct DispatcherETATests {
    static let pickup = Coordinate(longitude: -73.9855, latitude: 40.7580)

    static func dispatcher(_ etas: [TaxiID: Int], clock: ManualClock) async throws -> Dispatcher {
        try await Dispatcher(log: InMemoryDispatchLog(), clock: clock, etas: FixedETAs(seconds: etas))
    }

    static func freeTaxi(_ taxi: TaxiID, in zone: ZoneID, _ dispatcher: Dispatcher, clock: ManualClock) async throws {
        try await dispatcher.execute(.fleet(.appeared(taxi, zone: zone, at: clock.now)))
        try await dispatcher.execute(.login(taxi))
        try await dispatcher.execute(.setAvailable(taxi))
    }

    @Test func acceptanceTellsThePassengerTheRoutersETA() async throws {
        let clock = ManualClock(now: Date(timeIntervalSince1970: 1_790_000_000))
        let dispatcher = try await Self.dispatcher(["A": 240], clock: clock)
        try await Self.freeTaxi("A", in: "230", dispatcher, clock: clock)
        try await dispatcher.execute(.request("p1", pickup: Self.pickup, zone: "230", destination: nil))
        let events = try await dispatcher.accept("A")
        #expect(events.contains { if case .offerAccepted(_, "A", .seconds(240)) = $0 { true } else { false } })
        dispatcher.close()
    }

    @Test func theNearestZonesAreRankedByTheETAOfTheirBestFreeTaxi() async throws {
        let clock = ManualClock(now: Date(timeIntervalSince1970: 1_790_000_000))
        let dispatcher = try await Self.dispatcher(["A": 300, "B": 90, "C": 200, "D": 500], clock: clock)
        for (taxi, zone): (TaxiID, ZoneID) in [("A", "230"), ("B", "230"), ("C", "161"), ("D", "48")] {
            try await Self.freeTaxi(taxi, in: zone, dispatcher, clock: clock)
        }
        let ranked = await dispatcher.nearestZonesWithFreeTaxis(to: Self.pickup, limit: 2)
        #expect(ranked == [
            ZoneChoice(zone: "230", taxi: "B", eta: .seconds(90)),
            ZoneChoice(zone: "161", taxi: "C", eta: .seconds(200)),
        ])
        dispatcher.close()
    }

    @Test func theExpectedWaitAddsTheFreeTaxisETA() async throws {
        let clock = ManualClock(now: Date(timeIntervalSince1970: 1_790_000_000))
        let dispatcher = try await Self.dispatcher(["A": 180], clock: clock)
        try await Self.freeTaxi("A", in: "230", dispatcher, clock: clock)
        #expect(await dispatcher.expectedWait(at: Self.pickup, in: "230") == .seconds(180))
        #expect(await dispatcher.expectedWait(at: Self.pickup, in: "161") == nil)
        dispatcher.close()
    }

    /// Taxis became free in 230 a minute apart and were taken at once: a
    /// queued passenger, first in line, is told one arrival's wait, and a
    /// new request, second in line, two.
    @Test func aQueuedRideIsToldTheWaitOfItsOwnPlaceInLine() async throws {
        let clock = ManualClock(now: Date(timeIntervalSince1970: 1_790_000_000))
        let dispatcher = try await Self.dispatcher([:], clock: clock)
        for (index, taxi) in (["A", "B"] as [TaxiID]).enumerated() {
            try await Self.freeTaxi(taxi, in: "230", dispatcher, clock: clock)
            try await dispatcher.execute(.request(PassengerID("early\(index)"), pickup: Self.pickup, zone: "230", destination: nil))
            clock.advance(by: .seconds(60))
        }
        let events = try await dispatcher.execute(.request("p1", pickup: Self.pickup, zone: "230", destination: nil))
        let queued = try #require(events.lazy.compactMap { event -> RideRequestID? in
            if case .passengerQueued(let id, _, 1, _) = event { return id }
            return nil
        }.first)
        #expect(await dispatcher.expectedWait(ofQueued: queued) == .seconds(60))
        #expect(await dispatcher.expectedWait(at: Self.pickup, in: "230") == .seconds(120))
        dispatcher.close()
    }

    /// SPEC D5: no free taxi in the origin's zone at allocation time, so the
    /// free taxi with the shortest ETA elsewhere is allocated.
    @Test func aReservationWithoutAFreeTaxiInItsZoneGetsTheNearestFreeTaxi() async throws {
        let clock = ManualClock(now: Date(timeIntervalSince1970: 1_790_000_000))
        let dispatcher = try await Self.dispatcher(["C": 400, "D": 150], clock: clock)
        try await Self.freeTaxi("C", in: "161", dispatcher, clock: clock)
        try await Self.freeTaxi("D", in: "48", dispatcher, clock: clock)
        let id = try await Self.bookAndRunToAllocation(dispatcher, clock: clock)
        let phase = await dispatcher.snapshot.reservations[id]?.phase
        #expect(phase.map { if case .allocated("D", _) = $0 { true } else { false } } == true, "\(String(describing: phase))")
        dispatcher.close()
    }

    /// D5: the reminder 10 min before the pickup, when the reservation gets
    /// its taxi, tells the passenger and the driver the taxi's ETA.
    @Test func theReservationsReminderCarriesItsTaxisETA() async throws {
        let clock = ManualClock(now: Date(timeIntervalSince1970: 1_790_000_000))
        let dispatcher = try await Self.dispatcher(["A": 420], clock: clock)
        try await Self.freeTaxi("A", in: "230", dispatcher, clock: clock)
        _ = try await Self.bookAndRunToAllocation(dispatcher, clock: clock)
        await dispatcher.waitForWrites()
        for recipient in ["passenger:p1", "taxi:A"] {
            let told = try await dispatcher.undeliveredNotices(for: recipient, limit: 50).map(\.notice)
            let reminder = try #require(told.first { $0.kind == "reservation_allocated" }, "\(recipient): \(told.map(\.kind))")
            #expect(reminder.etaS == 420, "\(recipient)")
            #expect(reminder.taxiId == "A")
        }
        dispatcher.close()
    }

    /// D6: a taxi whose fix puts it within 20 m of the pickup has arrived.
    @Test func aTaxiWithin20MetresOfThePickupHasArrived() async throws {
        let clock = ManualClock(now: Date(timeIntervalSince1970: 1_790_000_000))
        let nearby = Coordinate(longitude: Self.pickup.longitude, latitude: Self.pickup.latitude + 0.0001)
        let dispatcher = try await Dispatcher(
            log: InMemoryDispatchLog(), clock: clock, etas: FixedETAs(seconds: ["A": 30]),
            positions: FixedPositions(positions: ["A": nearby]))
        try await Self.freeTaxi("A", in: "230", dispatcher, clock: clock)
        let opened = try await dispatcher.execute(.request("p1", pickup: Self.pickup, zone: "230", destination: nil))
        guard case .requestOpened(let id, _, _) = opened.first else {
            Issue.record("no request: \(opened)")
            return
        }
        try await dispatcher.accept("A")
        let phase = await Self.runTimers(of: dispatcher) { snapshot in
            if case .arrived = snapshot.requests[id]?.phase { true } else { false }
        }.requests[id]?.phase
        #expect(phase.map { if case .arrived("A", _) = $0 { true } else { false } } == true, "\(String(describing: phase))")
        dispatcher.close()
    }

    /// Books p1 a ride from ``pickup`` in zone 230 two hours ahead, moves
    /// the clock to its allocation time and runs the timers until the
    /// reservation has a taxi (or a thousand turns have passed).
    static func bookAndRunToAllocation(_ dispatcher: Dispatcher, clock: ManualClock) async throws -> ReservationID {
        let events = try await dispatcher.execute(.reserve(
            "p1", origin: pickup, zone: "230", destination: pickup, pickupAt: clock.now.addingTimeInterval(2 * 3600)))
        guard case .reservationMade(let id, _, _) = events.first else { throw DispatcherError.invalid("not booked: \(events)") }
        clock.advance(by: .seconds(2 * 3600 - 600))
        _ = await runTimers(of: dispatcher) { snapshot in
            if case .allocated = snapshot.reservations[id]?.phase { true } else { false }
        }
        return id
    }

    /// Runs the dispatcher's timer loop until `done` holds for its state
    /// (or a thousand turns have passed), and returns that state.
    static func runTimers(of dispatcher: Dispatcher, until done: (DispatchSnapshot) -> Bool) async -> DispatchSnapshot {
        let timers = Task { await dispatcher.runTimers() }
        defer { timers.cancel() }
        for _ in 0..<1_000 {
            if done(await dispatcher.snapshot) { break }
            await Task.yield()
        }
        return await dispatcher.snapshot
    }
}
