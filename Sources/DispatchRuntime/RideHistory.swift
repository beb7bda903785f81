import DispatchCore
import FixRecords
import Foundation
import Storage

/// What the history keeps of rides and bookings as they end (SPEC D8).
enum RideHistory {
    /// The records of the rides and bookings that `events` ended; `closed`
    /// is what the engine's call closed, as it was (``DispatchEngine/closedByLastCall``).
    static func records(
        endedBy events: [DispatchEvent], closed: (requests: [RideRequest], reservations: [Reservation]), at wall: Date
    ) -> [RideHistoryRecord] {
        guard !closed.requests.isEmpty || !closed.reservations.isEmpty else { return [] }
        let requests = Dictionary(closed.requests.map { ($0.id, $0) }) { first, _ in first }
        let reservations = Dictionary(closed.reservations.map { ($0.id, $0) }) { first, _ in first }
        return events.compactMap { event in
            switch event {
            case .rideCompleted(let id, _): record(of: requests[id], reservations, .completed, wall)
            case .clientMissing(let id, _): record(of: requests[id], reservations, .clientMissing, wall)
            case .requestCancelled(let id, .byPassenger): record(of: requests[id], reservations, .cancelled, wall)
            case .requestCancelled(let id, .notConfirmed): record(of: requests[id], reservations, .notConfirmed, wall)
            case .requestCancelled(let id, .outsideZones): record(of: requests[id], reservations, .outsideZones, wall)
            case .reservationCancelled(let id, let reason):
                reservations[id].map { reservation in
                    RideHistoryRecord(
                        ride: nil, reservation: id.description, passenger: reservation.passenger.text, taxi: nil,
                        pickup: reservation.origin, destination: reservation.destination, pickupAt: reservation.pickupAt,
                        endedAt: wall, outcome: reason == .outsideZones ? .outsideZones : .reservationCancelled)
                }
            default: nil
            }
        }
    }

    private static func record(
        of request: RideRequest?, _ reservations: [ReservationID: Reservation], _ outcome: RideHistoryRecord.Outcome, _ wall: Date
    ) -> RideHistoryRecord? {
        guard let request else { return nil }
        // A taxi only offered the ride was never sent for it.
        let taxi: String? = if case .offered = request.phase { nil } else { request.phase.taxi?.text }
        return RideHistoryRecord(
            ride: request.id.description, reservation: request.reservation?.description, passenger: request.passenger.text,
            taxi: taxi, pickup: request.pickup, destination: request.destination,
            pickupAt: request.reservation.flatMap { reservations[$0]?.pickupAt }, endedAt: wall, outcome: outcome)
    }
}
