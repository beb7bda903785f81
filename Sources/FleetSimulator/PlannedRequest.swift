import GeoKit

/// One arrival of the passengers' plan: who asks when, from where to
/// where, for a ride now or a booking, and whether they will cancel. It
/// comes from the seed alone; what the service makes of it depends on the
/// service and its timing.
public struct PlannedRequest: Sendable, Equatable {
    /// Simulated seconds after the start of the run.
    public var atSeconds: Double
    /// The passenger (from 0; `sim-p00001` is 0).
    public var passenger: Int
    /// Where the passenger is picked up.
    public var pickup: Coordinate
    /// Where the passenger goes.
    public var destination: Coordinate
    /// For a reservation, how far ahead of the request the pickup is booked, seconds; nil for a ride now.
    public var reservationAheadSeconds: Double?
    /// For a ride now, simulated seconds after which the passenger cancels
    /// when no taxi is on its way; for a reservation, any value means it is
    /// cancelled at once; nil: never cancelled.
    public var cancelsAfterSeconds: Double?
}
