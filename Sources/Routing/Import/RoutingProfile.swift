/// How one kind of traveller uses OSM ways: which ways it may take, in which
/// directions, how fast, and which turn restrictions bind it.
///
/// Profiles are data behind one protocol (like OSRM's `car.lua` and
/// `foot.lua`), so ``GraphBuilder`` never looks at tags itself.
/// ``CarProfile`` and ``FootProfile`` are the two the service ships.
public protocol RoutingProfile: Sendable {
    /// The profile's name as written in graph files and on the command line (`car`, `foot`).
    var name: String { get }

    /// How a way with these tags may be travelled, or nil when the profile
    /// cannot use it at all.
    func traversal(of tags: [String: String]) -> WayTraversal?

    /// Restriction keys this profile obeys, most specific first (for a car:
    /// `restriction:motorcar`, then `restriction`). The first key present on a
    /// relation decides; an empty list means the profile ignores turn restrictions.
    var restrictionKeys: [String] { get }

    /// Values of a restriction's `except` tag that exempt this profile.
    var restrictionExemptions: Set<String> { get }

    /// Values of a node's `highway` tag that mark a traffic signal this
    /// profile waits at (``SignalApproach``); empty when it ignores signals.
    var trafficSignalValues: Set<String> { get }
}

/// How a way may be travelled: its road class, and the speed and lane class
/// in each direction along the way's node order (speed nil where that
/// direction is closed).
public struct WayTraversal: Sendable, Equatable {
    /// The class stored on the way's edges (time-of-day speed factors key on it).
    public var roadClass: RoadClass
    /// Speed in km/h from the first node towards the last, or nil when not allowed.
    public var forwardSpeedKmh: Double?
    /// Speed in km/h from the last node towards the first, or nil when not allowed.
    public var backwardSpeedKmh: Double?
    /// Lane class from the first node towards the last (narrow-street factors key on it).
    public var forwardLanes: LaneClass
    /// Lane class from the last node towards the first.
    public var backwardLanes: LaneClass

    /// Creates a traversal; at least one speed should be set for the way to matter.
    /// Lane classes default to ``LaneClass/untagged`` (profiles that ignore widths).
    public init(roadClass: RoadClass, forwardSpeedKmh: Double?, backwardSpeedKmh: Double?,
                forwardLanes: LaneClass = .untagged, backwardLanes: LaneClass = .untagged) {
        self.roadClass = roadClass
        self.forwardSpeedKmh = forwardSpeedKmh
        self.backwardSpeedKmh = backwardSpeedKmh
        self.forwardLanes = forwardLanes
        self.backwardLanes = backwardLanes
    }
}

/// The profiles the service ships, looked up by name.
public enum RoutingProfiles {
    /// Every shipped profile: car first (the default), then foot.
    public static let all: [any RoutingProfile] = [CarProfile(), FootProfile()]

    /// The shipped profile called `name`, or nil.
    public static func named(_ name: String) -> (any RoutingProfile)? {
        all.first { $0.name == name }
    }
}
