/// Where a driver stands in the dispatch flow (SPEC D1).
///
/// Whether the taxi is stale (silent) is kept apart, in ``TaxiRecord``: an
/// available taxi that falls silent stays available, leaves its queue and
/// gets no offer until it reports again.
public enum DriverState: Hashable, Sendable, Codable {
    /// Not logged in: no queue, no offer.
    case offDuty
    /// Logged in but not taking rides; where every login starts, until the
    /// driver switches to available.
    case unavailable
    /// Waiting for a ride in its zone's queue.
    case available
    /// An offer for this request is waiting for the driver's answer.
    case offered(RideRequestID)
    /// Assigned to this request, from acceptance to the end of the ride.
    case busy(RideRequestID)
}
