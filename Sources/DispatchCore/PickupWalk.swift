import GeoKit

/// The walk of a passenger who asked for a taxi where none can stop (a
/// pedestrian street, a park) to the meeting point the taxi comes to
/// instead, the request's pickup (SPEC R5): told to the passenger, kept
/// with the ride and in the dispatch log.
public struct PickupWalk: Equatable, Sendable, Codable {
    /// Where the passenger asked to be picked up.
    public var from: Coordinate
    /// The walk's expected time, seconds.
    public var seconds: Double
    /// The walk's length, metres.
    public var metres: Double
    /// True when the walk was routed on the walking graph, false when it is a stretched straight line.
    public var routed: Bool

    public init(from: Coordinate, seconds: Double, metres: Double, routed: Bool) {
        self.from = from
        self.seconds = seconds
        self.metres = metres
        self.routed = routed
    }
}
