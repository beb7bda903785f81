import DispatchCore
import FixRecords
import Fleet
import Foundation
import GeoKit
import PropertyBased
import ServiceClock
import Testing
import Zones

/// Property-based (x-sheep/swift-property-based): generated sequences of
/// commands, fleet events, ticks, reservations and zone swaps keep the engine's
/// invariants after every step, and a refused command changes nothing. Each
/// step is one generated number that seeds every choice of the step, so a
/// failing sequence shrinks to the few steps that break the rule, and the
/// seed printed on failure replays it.
@Suite(.timeLimit(.minutes(20))) struct DispatchInvariantTests {
    static let taxis: [TaxiID] = ["A", "B", "C", "D", "E", "F"]
    static let passengers: [PassengerID] = ["p1", "p2", "p3", "p4", "p5"]
    static let zones: [ZoneID?] = ["230", "161", "48", nil]

    @Test func invariantsHoldOverGeneratedSequences() async {
        await propertyCheck(count: 60, input: Gen.uint64().array(of: 1...400)) { steps in
            try Self.run(steps)
        }
    }

    /// The same with two taxis in one zone and every request a shared one
    /// (SPEC D10), so that riders join, board, get out, cancel and go
    /// missing in every order.
    @Test func sharedRideInvariantsHoldOverGeneratedSequences() async {
        await propertyCheck(count: 400, input: Gen.uint64().array(of: 1...400)) { steps in
            try Self.run(steps, taxis: ["A", "B"], zones: ["230"], everyRequestShared: true)
        }
    }

    /// Runs one generated sequence, checking the invariants after each step.
    static func run(
        _ steps: [UInt64], taxis: [TaxiID] = Self.taxis, zones: [ZoneID?] = Self.zones, everyRequestShared: Bool = false
    ) throws {
        var harness = DispatchHarness(rules: DispatchRules(zoneDwell: .seconds(20), staleGrace: .seconds(120)))
        var fleetZone: [TaxiID: ZoneID?] = [:]
        var stale: Set<TaxiID> = []
        var allocated: Set<ReservationID> = []
        for (step, code) in steps.enumerated() {
            var random = SplitMix64(state: code)
            let taxi = taxis.randomElement(using: &random)!
            let passenger = Self.passengers.randomElement(using: &random)!
            let zone = zones.randomElement(using: &random)!
            let request = harness.snapshot.requests.keys.sorted().randomElement(using: &random)
            let reservation = harness.snapshot.reservations.keys.sorted().randomElement(using: &random)
            let (now, wall) = (harness.now, harness.clock.now)
            let before = harness.snapshot
            var events: [DispatchEvent] = []
            do {
                switch Int.random(in: 0..<21, using: &random) {
                case 0: events = harness.engine.login(taxi, now: now)
                case 1: events = try harness.engine.logout(taxi, now: now)
                case 2, 3: events = try harness.engine.setAvailable(taxi, now: now)
                case 4: events = try harness.engine.setUnavailable(taxi, now: now)
                case 5: events = try harness.engine.accept(taxi, eta: .seconds(240), now: now)
                case 6: events = try harness.engine.refuse(taxi, now: now)
                case 7 where !everyRequestShared: events = harness.request(passenger, in: zone).events
                case 7, 8:
                    // A shared request, joining a taxi on a shared ride (or any) at
                    // random stops, in range or not: the engine checks what it can.
                    let sharing = harness.snapshot.taxis.filter { !$0.value.itinerary.isEmpty }.keys.sorted()
                    let joined = sharing.randomElement(using: &random) ?? taxi
                    let stops = harness.snapshot.taxis[joined]?.itinerary.count ?? 0
                    let pickupIndex = Int.random(in: 0...stops + 1, using: &random)
                    let join = Int.random(in: 0..<4, using: &random) > 0
                        ? RideSharing.Join(
                            taxi: joined, pickupIndex: pickupIndex, dropoffIndex: pickupIndex + Int.random(in: 1...stops + 1, using: &random),
                            eta: .seconds(120))
                        : nil
                    events = harness.engine.request(
                        passenger: passenger, pickup: DispatchHarness.pickup, zone: zone, destination: DispatchHarness.pickup,
                        seats: Int.random(in: 1...3, using: &random), sharing: RideSharing(directTrip: .seconds(600), join: join),
                        now: now)
                case 9: if let request { events = try harness.engine.cancel(request, now: now) }
                case 10: if let request { events = try harness.engine.confirm(request, now: now) }
                case 11:
                    // The next stop's rider, or one named (on a shared ride, any of its riders).
                    let rider = Bool.random(using: &random) ? nil : request
                    switch Int.random(in: 0..<4, using: &random) {
                    case 0: events = try harness.engine.arrived(taxi, rider: rider, now: now)
                    case 1: events = try harness.engine.passengerAboard(taxi, rider: rider, now: now)
                    case 2: events = try harness.engine.completed(taxi, rider: rider, now: now)
                    default: events = try harness.engine.missingClient(taxi, rider: rider, now: now)
                    }
                case 12, 13:
                    if let old = fleetZone[taxi] {
                        events = harness.fleet(.changedZone(taxi, from: old, to: zone, at: wall))
                    } else {
                        events = harness.fleet(.appeared(taxi, zone: zone, at: wall))
                    }
                    fleetZone[taxi] = zone
                case 14:
                    guard fleetZone[taxi] != nil else { break }
                    if stale.remove(taxi) != nil {
                        events = harness.fleet(.cameBack(taxi, zone: zone, at: wall))
                        fleetZone[taxi] = zone
                    } else {
                        stale.insert(taxi)
                        events = harness.fleet(.wentStale(taxi, lastHeard: wall))
                    }
                case 15:
                    events = harness.engine.reserve(
                        passenger: passenger, origin: DispatchHarness.pickup, zone: zone, destination: DispatchHarness.pickup,
                        pickupAt: wall.addingTimeInterval(Double.random(in: 1.5...50, using: &random) * 3600), now: now, wall: wall)
                case 16: if let reservation { events = try harness.engine.cancelReservation(reservation, now: now, wall: wall) }
                case 17: if let reservation { events = try harness.engine.allocate(reservation, to: taxi, now: now) }
                case 18: events = harness.advance(Int.random(in: 600...10_800, using: &random))
                case 19:
                    // A new zone set: some taxis, requests and bookings in another zone or in none.
                    let change = Self.zoneSwap(of: harness.snapshot, using: &random)
                    for moved in change.taxis where fleetZone[moved.taxi] != nil { fleetZone[moved.taxi] = moved.zone }
                    events = harness.engine.replaceZones(change, now: now)
                default: events = harness.advance(Int.random(in: 1...40, using: &random))
                }
            } catch {
                #expect(harness.snapshot == before, "step \(step) (code \(code)): \(error) changed the state")
            }
            // Every reservation is allocated once, and not before its allocation time.
            for case .reservationAllocated(let id, _, _) in events {
                #expect(allocated.insert(id).inserted, "step \(step) (code \(code)): \(id) allocated twice")
                let pickupAt = try #require(before.reservations[id]?.pickupAt)
                #expect(harness.clock.now >= pickupAt.addingTimeInterval(-600), "step \(step) (code \(code)): \(id) allocated early")
            }
            try Self.checkInvariants(harness.snapshot, wall: harness.clock.now, context: "step \(step) (code \(code))")
        }
    }

    /// A random zone swap over `snapshot`: each taxi, request and booking
    /// moved to a random zone (or none) with even odds.
    static func zoneSwap(of snapshot: DispatchSnapshot, using random: inout SplitMix64) -> ZoneReassignment {
        let taxis = snapshot.taxis.keys.sorted().filter { _ in Bool.random(using: &random) }.map {
            ZoneReassignment.TaxiZone(taxi: $0, zone: Self.zones.randomElement(using: &random)!)
        }
        let requests = snapshot.requests.values.sorted { $0.id < $1.id }.filter { request in
            switch request.phase {
            case .waiting, .offered: Bool.random(using: &random)
            default: false
            }
        }.map { ZoneReassignment.RequestZone(request: $0.id, zone: Self.zones.randomElement(using: &random)!) }
        let reservations = snapshot.reservations.values.sorted { $0.id < $1.id }.filter { reservation in
            if case .allocated = reservation.phase { return false }
            return Bool.random(using: &random)
        }.map { ZoneReassignment.ReservationZone(reservation: $0.id, zone: Self.zones.randomElement(using: &random)!) }
        return ZoneReassignment(taxis: taxis, requests: requests, reservations: reservations)
    }

    /// A shared taxi's itinerary: every stop's rider rides in it, each
    /// rider is picked up before being dropped off, and the riders aboard
    /// never take more seats than the taxi has (SPEC D10).
    static func checkItinerary(_ record: TaxiRecord, of taxi: TaxiID, in snapshot: DispatchSnapshot, context: String) throws {
        let waiting = Set(record.itinerary.filter { $0.kind == .pickup }.map(\.ride))
        var load = record.itinerary.filter { $0.kind == .dropoff && !waiting.contains($0.ride) }
            .reduce(0) { $0 + (snapshot.requests[$1.ride]?.seats ?? 0) }
        var pickedUp: Set<RideRequestID> = []
        #expect(load <= record.seats, "\(context): \(taxi) carries \(load) of \(record.seats) seats")
        for stop in record.itinerary {
            let request = try #require(snapshot.requests[stop.ride], "\(context): \(taxi) stops for closed \(stop.ride)")
            #expect(request.phase.taxi == taxi, "\(context): \(stop.ride) on \(taxi)'s itinerary is \(request.phase)")
            switch stop.kind {
            case .pickup:
                #expect(pickedUp.insert(stop.ride).inserted, "\(context): \(stop.ride) picked up twice")
                load += request.seats
                #expect(load <= record.seats, "\(context): \(taxi) would carry \(load) of \(record.seats) seats")
            case .dropoff:
                load -= request.seats
            }
        }
        let dropoffs = record.itinerary.filter { $0.kind == .dropoff }.map(\.ride)
        #expect(Set(dropoffs).count == dropoffs.count, "\(context): \(taxi) drops a rider off twice")
        for ride in waiting {
            let pickup = try #require(record.itinerary.firstIndex(of: ItineraryStop(ride: ride, kind: .pickup)))
            let dropoff = try #require(record.itinerary.firstIndex(of: ItineraryStop(ride: ride, kind: .dropoff)),
                                       "\(context): \(ride) picked up, never dropped off")
            #expect(pickup < dropoff, "\(context): \(ride) dropped off before its pickup")
        }
    }

    /// What must hold between any two calls.
    static func checkInvariants(_ snapshot: DispatchSnapshot, wall: Date, context: String) throws {
        // Every available, reporting taxi in a zone is in exactly that zone's queue, and no other taxi is queued.
        var queued: [TaxiID: ZoneID] = [:]
        for (zone, queue) in snapshot.taxiQueues {
            #expect(!queue.isEmpty, "\(context): empty queue kept for \(zone)")
            for entry in queue.entries {
                #expect(queued.updateValue(zone, forKey: entry.taxi) == nil, "\(context): \(entry.taxi) queued twice")
                #expect(snapshot.taxis[entry.taxi]?.place == entry.place, "\(context): \(entry.taxi) queued at a stale place")
            }
            // Queues stay in availability order.
            let places = queue.entries.map(\.place)
            #expect(places == places.sorted(), "\(context): queue \(zone) out of order")
        }
        for (taxi, record) in snapshot.taxis {
            #expect(queued[taxi] == (record.isQueueable ? record.zone : nil), "\(context): \(taxi) in the wrong queue")
            #expect(record.queuedIn == queued[taxi], "\(context): \(taxi) does not know its queue")
        }
        // No taxi holds two offers or rides, except the riders of a shared
        // ride, and each driver state matches its request (a shared taxi's, its next stop's).
        var holders: [TaxiID: RideRequestID] = [:]
        for (id, request) in snapshot.requests {
            guard let taxi = request.phase.taxi else { continue }
            if let itinerary = snapshot.taxis[taxi]?.itinerary, !itinerary.isEmpty {
                #expect(request.isShared && itinerary.contains(ItineraryStop(ride: id, kind: .dropoff)),
                        "\(context): \(id) rides in shared taxi \(taxi) without a stop")
                let waitsForPickup = if case .aboard = request.phase { false } else { true }
                #expect(itinerary.contains(ItineraryStop(ride: id, kind: .pickup)) == waitsForPickup,
                        "\(context): \(id)'s pickup is not where its phase \(request.phase) says")
                continue
            }
            #expect(holders.updateValue(id, forKey: taxi) == nil, "\(context): \(taxi) holds two requests")
            if case .offered = request.phase {
                #expect(snapshot.state(of: taxi) == .offered(id), "\(context): \(taxi) unaware of its offer")
            } else {
                #expect(snapshot.state(of: taxi) == .busy(id), "\(context): \(taxi) unaware of its ride")
            }
        }
        for (taxi, record) in snapshot.taxis {
            if let next = record.itinerary.first {
                #expect(record.state == .busy(next.ride), "\(context): shared taxi \(taxi) is not busy with its next stop")
                try checkItinerary(record, of: taxi, in: snapshot, context: context)
                continue
            }
            switch record.state {
            case .offered(let id), .busy(let id): #expect(holders[taxi] == id, "\(context): \(taxi) holds a request that does not name it")
            default: #expect(holders[taxi] == nil)
            }
        }
        // No passenger has two open requests (the ride of a reservation is not one they asked for now).
        let passengers = snapshot.requests.values.filter { $0.reservation == nil }.map(\.passenger)
        #expect(Set(passengers).count == passengers.count, "\(context): a passenger has two open requests")
        #expect(snapshot.openRequestOfPassenger.count == passengers.count)
        // Waiting requests are in their zone's passenger queue, oldest first, and nothing else is.
        for (zone, queue) in snapshot.passengerQueues {
            #expect(!queue.isEmpty && queue == queue.sorted(), "\(context): passenger queue \(zone) out of order")
            for id in queue {
                let request = try #require(snapshot.requests[id], "\(context): \(id) queued but closed")
                #expect(request.zone == zone)
                guard case .waiting = request.phase else {
                    Issue.record("\(context): \(id) queued but \(request.phase)")
                    continue
                }
                // Nothing is left to offer: every queued taxi was tried by every waiting request.
                for taxi in snapshot.taxiQueue(in: zone) {
                    #expect(request.triedTaxis.contains(taxi), "\(context): \(id) waits while \(taxi) is free")
                }
            }
        }
        // A reservation past its allocation time has a taxi or awaits one; its ride names it.
        for (id, reservation) in snapshot.reservations {
            switch reservation.phase {
            case .booked:
                #expect(wall < reservation.pickupAt.addingTimeInterval(-600), "\(context): \(id) not allocated in time")
            case .awaitingTaxi:
                #expect(snapshot.taxiQueue(in: reservation.zone).isEmpty, "\(context): \(id) awaits a taxi while one is free")
            case .allocated(let taxi, let ride):
                #expect(snapshot.requests[ride]?.reservation == id && snapshot.requests[ride]?.phase.taxi == taxi)
            }
        }
        let waiting = snapshot.requests.values.filter { if case .waiting = $0.phase { true } else { false } }
        #expect(waiting.count == snapshot.passengerQueues.values.map(\.count).reduce(0, +))
    }
}
