import Foundation
import GeoKit

/// One ride or booking that ended, as a passenger's and a driver's history
/// show it (SPEC D8): written with the dispatch log entry that ended it.
public struct RideHistoryRecord: Sendable, Equatable, Codable {
    /// How it ended.
    public enum Outcome: String, Sendable, Codable {
        /// The passenger was driven to the destination.
        case completed
        /// The taxi waited at the pickup in vain.
        case clientMissing = "client_missing"
        /// The passenger cancelled the request.
        case cancelled
        /// The passenger did not confirm waiting in the passenger queue.
        case notConfirmed = "not_confirmed"
        /// The passenger cancelled the reservation.
        case reservationCancelled = "reservation_cancelled"
        /// A new zone set left the pickup outside every zone (SPEC Z4).
        case outsideZones = "outside_zones"
    }

    /// The ride request's id (`R12`), nil for a reservation cancelled before it had a ride.
    public var ride: String?
    /// The reservation's id (`V3`) when the ride was booked ahead.
    public var reservation: String?
    /// The passenger's id.
    public var passenger: String
    /// The taxi that served or was on its way, if any.
    public var taxi: String?
    /// Where the passenger was to be picked up.
    public var pickup: Coordinate
    /// Where the passenger was going, when given.
    public var destination: Coordinate?
    /// A reservation's pickup time.
    public var pickupAt: Date?
    /// When it ended (wall clock).
    public var endedAt: Date
    /// How it ended.
    public var outcome: Outcome

    /// A record of all of these.
    public init(
        ride: String?, reservation: String?, passenger: String, taxi: String?, pickup: Coordinate, destination: Coordinate?,
        pickupAt: Date?, endedAt: Date, outcome: Outcome
    ) {
        self.ride = ride
        self.reservation = reservation
        self.passenger = passenger
        self.taxi = taxi
        self.pickup = pickup
        self.destination = destination
        self.pickupAt = pickupAt
        self.endedAt = endedAt
        self.outcome = outcome
    }
}
