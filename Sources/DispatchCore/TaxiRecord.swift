import Fleet
import Zones

/// Everything the engine knows about one taxi: the driver's state, the zone
/// that counts for its queue, whether it is silent, and its place in line.
///
/// A taxi is in a zone queue exactly when it is available, not stale, and
/// in a zone (``isQueueable``); the engine keeps ``queuedIn`` in step with
/// that after every change.
public struct TaxiRecord: Equatable, Sendable, Codable {
    /// The driver's state.
    public internal(set) var state: DriverState = .offDuty
    /// The zone that counts for queues and offers (nil: unknown, or outside the service area).
    public internal(set) var zone: ZoneID?
    /// A zone change still within its dwell.
    public internal(set) var pendingZone: PendingZoneChange?
    /// When the taxi went stale (monotonic time), nil while it reports.
    public internal(set) var staleSince: Duration?
    /// Its place in line while available or holding an offer; nil otherwise.
    public internal(set) var place: QueuePlace?
    /// The zone whose queue holds the taxi now, if any.
    public internal(set) var queuedIn: ZoneID?
    /// The passengers it carries, as the taxi registry said at the driver's
    /// last login; nil: the registry's default (a record of a log written
    /// before seats were known).
    public internal(set) var seatCount: Int?

    /// The username of the driver logged in for the taxi, when the login
    /// named one: whom the statistics count its rides and hours for.
    public internal(set) var driver: String?
    /// The stops still to make on a shared ride, in order; nil or empty for
    /// a taxi not on one (a record of a log written before sharing reads nil).
    public internal(set) var sharedStops: [ItineraryStop]?

    /// The shared ride's stops still to make, empty when the taxi is not on one (SPEC D10).
    public var itinerary: [ItineraryStop] { sharedStops ?? [] }
    /// The passengers the taxi carries: it is offered only parties that fit.
    public var seats: Int { seatCount ?? DeviceRegistry.defaultSeats }

    /// True when the rules put the taxi in a zone queue: available, reporting, in a zone.
    public var isQueueable: Bool {
        state == .available && staleSince == nil && zone != nil && place != nil
    }
}
