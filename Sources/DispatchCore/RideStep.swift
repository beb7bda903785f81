/// What a driver reports during an accepted ride (SPEC D6), named in the
/// error when a report comes out of order.
public enum RideStep: Equatable, Sendable, Codable {
    /// At the pickup.
    case arrived
    /// The passenger got in.
    case passengerAboard
    /// The passenger got out at the end of the ride.
    case completed
    /// Nobody came to the pickup.
    case missingClient
}
