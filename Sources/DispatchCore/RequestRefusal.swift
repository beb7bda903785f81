import Foundation
import GeoKit

/// Why the engine turned a new ride request down, for the passenger to read (SPEC D3, Z2).
public enum RequestRefusal: Equatable, Sendable, Codable, CustomStringConvertible {
    /// The pickup point is in no zone.
    case outsideServiceArea(pickup: Coordinate)
    /// The passenger already has this request open.
    case passengerHasOpenRequest(RideRequestID)
    /// A reservation's pickup is sooner than the minimum lead allows; `earliest` is the first time accepted (D5).
    case pickupTooSoon(earliest: Date)
    /// A reservation's pickup is further ahead than the maximum lead allows; `latest` is the last time accepted (D5).
    case pickupTooLate(latest: Date)
    /// The passenger already holds this reservation for the same pickup, place and destination.
    case duplicateReservation(ReservationID)
    /// The passenger already holds as many open reservations as one may (``DispatchRules/maximumOpenReservations``).
    case tooManyReservations(limit: Int)

    public var description: String {
        switch self {
        case .outsideServiceArea(let pickup): "the pickup \(pickup) is outside the service area"
        case .passengerHasOpenRequest(let open): "the passenger already has request \(open) open"
        case .pickupTooSoon(let earliest): "a reservation's pickup must be at \(earliest.formatted(.iso8601)) or later"
        case .pickupTooLate(let latest): "a reservation's pickup must be at \(latest.formatted(.iso8601)) or sooner"
        case .duplicateReservation(let existing):
            "the passenger already holds reservation \(existing) for this pickup time, place and destination"
        case .tooManyReservations(let limit):
            "the passenger already holds \(limit) open reservations, the most one may; cancel one to book another"
        }
    }
}
