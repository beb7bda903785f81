import FixRecords
import Foundation
import Zones

/// What the engine decided, in the order it decided it: every command,
/// fleet event and timer returns these, for the notification layer to tell
/// drivers and passengers and for the durable event log to record.
public enum DispatchEvent: Equatable, Sendable, Codable {
    /// A driver's state changed (SPEC D1).
    case driverStateChanged(TaxiID, from: DriverState, to: DriverState)
    /// A taxi's zone change outlasted the dwell and now counts (D2).
    case taxiChangedZone(TaxiID, from: ZoneID?, to: ZoneID?)
    /// A taxi joined a zone's queue at this 1-based position (D2).
    case taxiJoinedQueue(TaxiID, zone: ZoneID, position: Int)
    /// A taxi left a zone's queue (offered, unavailable, stale, moved, logged out).
    case taxiLeftQueue(TaxiID, zone: ZoneID)
    /// A new request was accepted by the engine and given this id (D3).
    case requestOpened(RideRequestID, passenger: PassengerID, zone: ZoneID)
    /// A new request was turned down (D3).
    case requestRefused(PassengerID, reason: RequestRefusal)
    /// The request was offered to a taxi, which has until `expiresAt` to answer (D3).
    case offerMade(RideRequestID, taxi: TaxiID, expiresAt: Duration)
    /// The driver accepted: the passenger is told the taxi and the ETA (nil when none could be estimated).
    case offerAccepted(RideRequestID, taxi: TaxiID, eta: Duration?)
    /// The driver refused the offer.
    case offerRefused(RideRequestID, taxi: TaxiID)
    /// The driver let the offer time out.
    case offerTimedOut(RideRequestID, taxi: TaxiID)
    /// The offer was taken back because the request was cancelled.
    case offerWithdrawn(RideRequestID, taxi: TaxiID)
    /// No taxi could be offered the request: it waits in the zone's
    /// passenger queue at this 1-based position, and the passenger must
    /// confirm by `confirmBy` (nil: already confirmed) (D4).
    case passengerQueued(RideRequestID, zone: ZoneID, position: Int, confirmBy: Duration?)
    /// The passenger confirmed waiting (D4).
    case requestConfirmed(RideRequestID)
    /// The request was cancelled and will not be offered again.
    case requestCancelled(RideRequestID, reason: CancellationReason)
    /// The taxi reported its arrival at the pickup (D6).
    case taxiArrived(RideRequestID, taxi: TaxiID)
    /// The passenger got in (D6).
    case passengerAboard(RideRequestID, taxi: TaxiID)
    /// The ride ended at the destination (D6).
    case rideCompleted(RideRequestID, taxi: TaxiID)
    /// The driver waited at the pickup in vain (D6).
    case clientMissing(RideRequestID, taxi: TaxiID)
    /// The ETA of the taxi on its way to the pickup changed, or is told again (D6).
    case etaChanged(RideRequestID, taxi: TaxiID, eta: Duration)
    /// A shared request joined a taxi already on a shared ride, which reaches
    /// the pickup in `eta` as planned (D10): the passenger is told the taxi.
    case riderJoined(RideRequestID, taxi: TaxiID, eta: Duration?)
    /// A shared taxi's stops still to make changed: a rider joined, got in,
    /// got out, did not come or cancelled (D10). Empty: the shared ride is over.
    case itineraryChanged(TaxiID, stops: [ItineraryStop])
    /// A reservation was booked for `pickupAt` (D5).
    case reservationMade(ReservationID, passenger: PassengerID, pickupAt: Date)
    /// A reservation was cancelled: by its passenger, or by a new zone set that left its origin outside every zone.
    case reservationCancelled(ReservationID, reason: CancellationReason)
    /// A reservation's allocation time came with no free taxi in its zone:
    /// the next one to become free there takes it, unless the service
    /// allocates a nearer free taxi first.
    case reservationAwaitingTaxi(ReservationID, zone: ZoneID)
    /// A taxi was allocated to a reservation (it cannot refuse): the ride is request `ride`.
    case reservationAllocated(ReservationID, taxi: TaxiID, ride: RideRequestID)
}
