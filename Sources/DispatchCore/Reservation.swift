import FixRecords
import Foundation
import GeoKit
import Zones

/// A ride booked ahead (SPEC D5): from the moment the engine accepts it
/// until it is cancelled or its ride ends. Its times are wall-clock times,
/// since a pickup hours ahead is a time of day, not a duration.
public struct Reservation: Equatable, Sendable, Codable {
    /// The engine's id for the reservation.
    public let id: ReservationID
    /// Who booked.
    public let passenger: PassengerID
    /// Where to pick the passenger up.
    public let origin: Coordinate
    /// The origin's zone, whose queue gives the taxi.
    public internal(set) var zone: ZoneID
    /// Where the passenger goes.
    public let destination: Coordinate
    /// When the passenger is to be picked up (wall clock).
    public let pickupAt: Date
    /// Where the reservation stands.
    public internal(set) var phase: ReservationPhase
    /// The passenger's walk to the origin, when it is a meeting point; nil door to door.
    public internal(set) var walk: PickupWalk?
    /// The seats the party needs when more than one; nil: one.
    public internal(set) var partySize: Int?

    /// The seats the party needs: only a taxi with as many is allocated.
    public var seats: Int { partySize ?? 1 }
}

/// Where a reservation stands (SPEC D5).
public enum ReservationPhase: Equatable, Sendable, Codable {
    /// Booked; a taxi is allocated at the pickup time less ``DispatchRules/allocationLead``.
    case booked
    /// Its allocation time has come and no free taxi was found yet: the
    /// next taxi to become free in its zone takes it, or the service
    /// allocates the nearest free taxi by ETA.
    case awaitingTaxi
    /// `taxi` was allocated; the ride is request `ride`.
    case allocated(taxi: TaxiID, ride: RideRequestID)
}
