import FixRecords
import Foundation
import GeoKit
import Zones

/// Rides booked ahead (SPEC D5). Their times are wall-clock times (`wall`),
/// the rest of the engine's rules run on monotonic time (`now`).
extension DispatchEngine {
    /// A passenger books a ride from `origin` (in `zone`, nil outside the
    /// service area) to `destination`, to be picked up at `pickupAt`, which
    /// must be from ``DispatchRules/reservationMinimumLead`` (2 h) to
    /// ``DispatchRules/reservationMaximumLead`` (48 h) after `wall`.
    /// Refused with the reason otherwise (`requestRefused`). `walk` is the
    /// passenger's walk to `origin` when it is a meeting point.
    public mutating func reserve(
        passenger: PassengerID, origin: Coordinate, zone: ZoneID?, destination: Coordinate, pickupAt: Date,
        walk: PickupWalk? = nil, seats: Int? = nil, now: Duration, wall: Date
    ) -> [DispatchEvent] {
        recording { engine in
            let earliest = wall.addingTimeInterval(engine.rules.reservationMinimumLead / .seconds(1))
            let latest = wall.addingTimeInterval(engine.rules.reservationMaximumLead / .seconds(1))
            let refusal: RequestRefusal? =
                if zone == nil { .outsideServiceArea(pickup: origin) }
                else if pickupAt < earliest { .pickupTooSoon(earliest: earliest) }
                else if pickupAt > latest { .pickupTooLate(latest: latest) }
                else { nil }
            guard let zone, refusal == nil else {
                engine.emitted.append(.requestRefused(passenger, reason: refusal ?? .outsideServiceArea(pickup: origin)))
                return
            }
            let id = ReservationID(engine.state.nextReservationNumber)
            engine.state.nextReservationNumber += 1
            engine.state.reservations[id] = Reservation(
                id: id, passenger: passenger, origin: origin, zone: zone, destination: destination, pickupAt: pickupAt,
                phase: .booked, walk: walk, partySize: seats)
            engine.emitted.append(.reservationMade(id, passenger: passenger, pickupAt: pickupAt))
        }
    }

    /// The passenger cancels a reservation: allowed until
    /// ``DispatchRules/reservationCancellationLead`` (1 h) before its pickup.
    /// - Throws: ``DispatchError/unknownReservation(_:)``,
    ///   ``DispatchError/reservationCancellationTooLate(_:deadline:)``.
    public mutating func cancelReservation(_ id: ReservationID, now: Duration, wall: Date) throws(DispatchError) -> [DispatchEvent] {
        try recording { (engine: inout DispatchEngine) throws(DispatchError) in
            guard let reservation = engine.state.reservations[id] else { throw .unknownReservation(id) }
            let deadline = engine.cancellationDeadline(of: reservation)
            guard wall <= deadline, case .booked = reservation.phase else {
                throw .reservationCancellationTooLate(id, deadline: deadline)
            }
            engine.state.reservations[id] = nil
            engine.closedByLastCall.reservations.append(reservation)
            engine.emitted.append(.reservationCancelled(id, reason: .byPassenger))
        }
    }

    /// The service allocates `taxi`, the nearest free taxi by ETA it found,
    /// to a reservation that awaits one (none was free in its zone).
    /// - Throws: ``DispatchError/unknownReservation(_:)``,
    ///   ``DispatchError/reservationNotAwaitingTaxi(_:)``, ``DispatchError/taxiNotFree(_:)``.
    public mutating func allocate(_ id: ReservationID, to taxi: TaxiID, now: Duration) throws(DispatchError) -> [DispatchEvent] {
        try recording { (engine: inout DispatchEngine) throws(DispatchError) in
            guard let reservation = engine.state.reservations[id] else { throw .unknownReservation(id) }
            guard case .awaitingTaxi = reservation.phase else { throw .reservationNotAwaitingTaxi(id) }
            guard let record = engine.state.taxis[taxi], record.queuedIn != nil, record.seats >= reservation.seats else {
                throw .taxiNotFree(taxi)
            }
            engine.give(id, to: taxi, now: now)
        }
    }

    /// The earliest wall-clock time at which a booked reservation is due
    /// for allocation, nil when none is booked.
    public var nextReservationDeadline: Date? {
        state.reservations.values.lazy.filter { $0.phase == .booked }.map { allocationTime(of: $0) }.min()
    }

    /// Allocates every booked reservation whose allocation time has come by
    /// `wall`, earliest pickup first: the head of its zone's queue, else it awaits a taxi.
    mutating func allocateDueReservations(now: Duration, wall: Date) {
        for reservation in state.reservations(where: { $0.phase == .booked && allocationTime(of: $0) <= wall }) {
            if let head = firstFreeTaxi(in: reservation.zone, seating: reservation.seats) {
                give(reservation.id, to: head, now: now)
            } else {
                state.reservations.modify(reservation.id) { $0.phase = .awaitingTaxi }
                emitted.append(.reservationAwaitingTaxi(reservation.id, zone: reservation.zone))
            }
        }
    }

    /// Gives the reservations of `zone` that await a taxi, earliest pickup
    /// first, to the taxis at the head of its queue (before any immediate
    /// request: their passengers booked first).
    mutating func allocateAwaitingReservations(in zone: ZoneID, now: Duration) {
        for reservation in state.reservations(where: { $0.zone == zone && $0.phase == .awaitingTaxi }) {
            guard let head = firstFreeTaxi(in: zone, seating: reservation.seats) else { continue }
            give(reservation.id, to: head, now: now)
        }
    }

    /// `taxi` takes reservation `id`: a ride request assigned to it at once.
    private mutating func give(_ id: ReservationID, to taxi: TaxiID, now: Duration) {
        guard let reservation = state.reservations[id] else { return }
        let ride = RideRequestID(state.nextRequestNumber)
        state.nextRequestNumber += 1
        state.requests[ride] = RideRequest(
            id: ride, passenger: reservation.passenger, pickup: reservation.origin, zone: reservation.zone,
            destination: reservation.destination, phase: .assigned(taxi: taxi, eta: nil), openedAt: now, reservation: id,
            walk: reservation.walk, partySize: reservation.partySize)
        state.reservations.modify(id) { $0.phase = .allocated(taxi: taxi, ride: ride) }
        emitted.append(.reservationAllocated(id, taxi: taxi, ride: ride))
        state.taxis.modify(taxi) { $0.place = nil }
        setState(taxi, to: .busy(ride))
        reconcileQueue(of: taxi, now: now)
    }

    /// When a reservation gets its taxi: its pickup less the allocation lead.
    func allocationTime(of reservation: Reservation) -> Date {
        reservation.pickupAt.addingTimeInterval(-(rules.allocationLead / .seconds(1)))
    }

    /// The last moment a reservation may be cancelled.
    func cancellationDeadline(of reservation: Reservation) -> Date {
        reservation.pickupAt.addingTimeInterval(-(rules.reservationCancellationLead / .seconds(1)))
    }
}
