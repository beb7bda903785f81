import FixRecords
import GeoKit
import Zones

/// An immediate ride request (SPEC D3), from the moment it is accepted by
/// the engine until it is cancelled or its ride ends.
public struct RideRequest: Equatable, Sendable, Codable {
    /// The engine's id for the request.
    public let id: RideRequestID
    /// Who asked.
    public let passenger: PassengerID
    /// Where to pick the passenger up (WGS84).
    public let pickup: Coordinate
    /// The pickup's zone, whose queue serves the request (a new zone set may change it).
    public internal(set) var zone: ZoneID
    /// Where the passenger goes, when given.
    public let destination: Coordinate?
    /// Where the request stands.
    public internal(set) var phase: RequestPhase
    /// When the request was opened (monotonic time), for the wait until its taxi arrives (D9).
    public internal(set) var openedAt: Duration = .zero
    /// The time to an offer the engine expected when the request was opened,
    /// before learning from the zone's history: zero when a taxi was free,
    /// else the passengers ahead over the recent arrival rate of free taxis;
    /// nil when there was no rate, and for a reservation's ride. What the
    /// wait that happened is checked against (``ZoneWaitHistory``).
    public internal(set) var expectedTimeToOffer: Duration?
    /// The taxis already offered this request, in order: none of them is
    /// offered it again, whatever queue they rejoin.
    public internal(set) var triedTaxis: [TaxiID] = []
    /// True once the passenger confirmed waiting in the passenger queue.
    public internal(set) var confirmed = false
    /// When the ETA of an assigned ride was last told (monotonic time); nil before any.
    public internal(set) var etaToldAt: Duration?
    /// The reservation this ride serves; nil for an immediate request.
    public internal(set) var reservation: ReservationID?
    /// The passenger's walk to the pickup, when it is a meeting point; nil door to door.
    public internal(set) var walk: PickupWalk?
    /// The seats the party needs when more than one; nil: one (so the
    /// requests of a log written before parties were asked read the same).
    public internal(set) var partySize: Int?
    /// The rider's bounds when the passenger asked to share the taxi (SPEC
    /// D10), with the time of boarding once aboard; nil for a ride alone.
    public internal(set) var sharedRider: SharedRider?

    /// The seats the party needs: only a taxi with as many is offered the request.
    public var seats: Int { partySize ?? 1 }
    /// True when the passenger asked to share the taxi.
    public var isShared: Bool { sharedRider != nil }
}
