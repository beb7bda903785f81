import FixRecords
import Foundation

/// A command the engine cannot carry out in the current state; the state is
/// left unchanged (SPEC A3: every input is checked).
public enum DispatchError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The driver must log in first.
    case notLoggedIn(TaxiID)
    /// The driver must answer this pending offer first.
    case offerPending(TaxiID, RideRequestID)
    /// The driver is on this ride.
    case onRide(TaxiID, RideRequestID)
    /// The driver answered, but no offer waits for the taxi.
    case noPendingOffer(TaxiID)
    /// The driver reported a ride step that does not follow from where the ride stands.
    case rideStepOutOfOrder(TaxiID, RideStep)
    /// A missing client can only be reported from `allowedFrom` on (arrival plus the wait).
    case missingClientTooEarly(TaxiID, allowedFrom: Duration)
    /// No open request has this id.
    case unknownRequest(RideRequestID)
    /// The passenger is aboard: the ride can only be completed.
    case rideInProgress(RideRequestID)
    /// No open reservation has this id.
    case unknownReservation(ReservationID)
    /// A reservation can be cancelled only until `deadline` (D5: 1 h before its pickup).
    case reservationCancellationTooLate(ReservationID, deadline: Date)
    /// The service can allocate a taxi to a reservation only once it awaits one.
    case reservationNotAwaitingTaxi(ReservationID)
    /// The taxi is not free (available, reporting, in a queue) to take a reservation.
    case taxiNotFree(TaxiID)
    /// On a shared ride, this rider's party boarding now would leave no room
    /// for the riders to be picked up before those aboard get out (D10).
    case noRoomAboard(TaxiID, RideRequestID)

    public var description: String {
        switch self {
        case .notLoggedIn(let taxi): "taxi \(taxi) is not logged in"
        case .offerPending(let taxi, let request): "taxi \(taxi) must first answer the offer of \(request)"
        case .onRide(let taxi, let request): "taxi \(taxi) is on ride \(request)"
        case .noPendingOffer(let taxi): "no offer is waiting for taxi \(taxi)"
        case .rideStepOutOfOrder(let taxi, let step): "taxi \(taxi) cannot report \(step) now"
        case .missingClientTooEarly(let taxi, let allowedFrom):
            "taxi \(taxi) can report a missing client only from \(allowedFrom) on"
        case .unknownRequest(let request): "no open request \(request)"
        case .rideInProgress(let request): "the passenger of \(request) is aboard"
        case .unknownReservation(let reservation): "no open reservation \(reservation)"
        case .reservationCancellationTooLate(let reservation, let deadline):
            "reservation \(reservation) could be cancelled only until \(deadline.formatted(.iso8601))"
        case .reservationNotAwaitingTaxi(let reservation): "reservation \(reservation) does not await a taxi"
        case .taxiNotFree(let taxi): "taxi \(taxi) is not free"
        case .noRoomAboard(let taxi, let ride):
            "taxi \(taxi) has no room for the party of \(ride) before other riders get out: pick it up where the itinerary says"
        }
    }
}
