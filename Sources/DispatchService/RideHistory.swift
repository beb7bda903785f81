import FixRecords
import Foundation
import Storage
import TaxiDispatch

/// What the history keeps of rides and bookings as they end (SPEC D8).
enum RideHistory {
    /// The records of the rides and bookings that `events` ended, read from
    /// the state `before` them (where the ended requests still are).
    static func records(endedBy events: [DispatchEvent], before: DispatchSnapshot, at wall: Date) -> [RideHistoryRecord] {
        events.compactMap { event in
            switch event {
            case .rideCompleted(let id, _): record(of: id, before, .completed, wall)
            case .clientMissing(let id, _): record(of: id, before, .clientMissing, wall)
            case .requestCancelled(let id, .byPassenger): record(of: id, before, .cancelled, wall)
            case .requestCancelled(let id, .notConfirmed): record(of: id, before, .notConfirmed, wall)
            case .reservationCancelled(let id):
                before.reservations[id].map { reservation in
                    RideHistoryRecord(
                        ride: nil, reservation: id.description, passenger: reservation.passenger.text, taxi: nil,
                        pickup: reservation.origin, destination: reservation.destination, pickupAt: reservation.pickupAt,
                        endedAt: wall, outcome: .reservationCancelled)
                }
            default: nil
            }
        }
    }

    private static func record(
        of id: RideRequestID, _ before: DispatchSnapshot, _ outcome: RideHistoryRecord.Outcome, _ wall: Date
    ) -> RideHistoryRecord? {
        guard let request = before.requests[id] else { return nil }
        let reservation = request.reservation.flatMap { before.reservations[$0] }
        // A taxi only offered the ride was never sent for it.
        let taxi: String? = if case .offered = request.phase { nil } else { request.phase.taxi?.text }
        return RideHistoryRecord(
            ride: id.description, reservation: request.reservation?.description, passenger: request.passenger.text,
            taxi: taxi, pickup: request.pickup, destination: request.destination,
            pickupAt: reservation?.pickupAt, endedAt: wall, outcome: outcome)
    }
}
