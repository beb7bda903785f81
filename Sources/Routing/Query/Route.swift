import Foundation
import GeoKit

/// A route between two coordinates, as ``RoadRouter/route(from:to:depart:includeGeometry:)`` answers.
public struct Route: Sendable, Equatable {
    /// Driving time in seconds for the departure hour's speeds.
    public var durationSeconds: Double
    /// Driving distance in metres, from snapped point to snapped point.
    public var distanceMetres: Double
    /// The snapped source (on the road the route starts on), the road nodes
    /// driven through, the snapped target (on the road it ends on); empty
    /// unless asked for.
    public var geometry: [Coordinate]
    /// How far the source coordinate was from the road the route starts on
    /// (the snap candidate it uses, not necessarily the nearest road), in metres.
    public var sourceSnapMetres: Double
    /// How far the target coordinate was from the road the route ends on
    /// (the snap candidate it uses), in metres.
    public var targetSnapMetres: Double
}

/// One entry of a table from the router: how long and how far.
public struct TravelEstimate: Sendable, Equatable {
    /// Driving time in seconds.
    public var durationSeconds: Double
    /// Driving distance in metres (of the fastest path, carried through customization).
    public var distanceMetres: Double
}

/// Whether a taxi called now reaches a pickup in time.
public struct Reachability: Sendable, Equatable {
    /// True when the estimated arrival is no later than the deadline.
    public var reachable: Bool
    /// Estimated arrival: call time + expected wait + driving time.
    public var arrival: Date
    /// Deadline minus arrival in seconds; negative when late.
    public var marginSeconds: Double
    /// The driving part, in seconds.
    public var driveSeconds: Double
}

/// Errors of routing between coordinates.
public enum RouteError: Error, Equatable, CustomStringConvertible {
    /// No road path leads from the source to the target (one-way dead ends, islands).
    case noRoute

    public var description: String {
        switch self {
        case .noRoute: "no road path from the source to the target"
        }
    }
}
