import GeoKit

/// Why the engine turned a new ride request down, for the passenger to read (SPEC D3, Z2).
public enum RequestRefusal: Equatable, Sendable, Codable, CustomStringConvertible {
    /// The pickup point is in no zone.
    case outsideServiceArea(pickup: Coordinate)
    /// The passenger already has this request open.
    case passengerHasOpenRequest(RideRequestID)

    public var description: String {
        switch self {
        case .outsideServiceArea(let pickup): "the pickup \(pickup) is outside the service area"
        case .passengerHasOpenRequest(let open): "the passenger already has request \(open) open"
        }
    }
}
