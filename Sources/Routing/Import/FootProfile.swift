/// The pedestrian profile: footways, paths, steps and streets, for walking
/// legs (to a taxi rank, to a pickup point).
///
/// - Ways: `footway`, `path`, `pedestrian`, `steps`, `track`, `cycleway`,
///   `living_street`, `residential`, `service`, `unclassified` and
///   `tertiary` up to `primary` with their links. Motorways and trunks are
///   never walked; any way with `foot=no` (most specific tag wins over
///   `access`) is left out. Pedestrian squares drawn as `area=yes` are kept:
///   walking their outline approximates crossing them.
/// - Speed: ``walkingSpeedKmh`` everywhere, ``stepsSpeedKmh`` on steps.
/// - Direction: car `oneway` tags are ignored; only `oneway:foot` restricts.
/// - Turn restrictions do not apply to pedestrians.
public struct FootProfile: RoutingProfile {
    /// Walking speed on level ground.
    public static let walkingSpeedKmh = 5.0
    /// Walking speed on steps.
    public static let stepsSpeedKmh = 2.5

    /// The road class of each walkable `highway` value.
    public static let walkableClasses: [String: RoadClass] = [
        "footway": .footway, "path": .footway, "pedestrian": .footway, "steps": .footway,
        "track": .footway, "cycleway": .footway,
        "living_street": .livingStreet, "residential": .residential, "service": .service,
        "unclassified": .unclassified,
        "tertiary": .tertiary, "tertiary_link": .tertiaryLink,
        "secondary": .secondary, "secondary_link": .secondaryLink,
        "primary": .primary, "primary_link": .primaryLink,
    ]

    private static let access = AccessTags(
        hierarchy: ["access", "foot"], denied: ["no", "private", "use_sidepath", "military"])

    public let name = "foot"
    public let restrictionKeys: [String] = []
    public let restrictionExemptions: Set<String> = []
    public let trafficSignalValues: Set<String> = []

    /// Creates the foot profile.
    public init() {}

    public func traversal(of tags: [String: String]) -> WayTraversal? {
        guard let highway = tags["highway"], let roadClass = Self.walkableClasses[highway],
              Self.access.allows(tags) else { return nil }
        let speed = highway == "steps" ? Self.stepsSpeedKmh : Self.walkingSpeedKmh
        switch tags["oneway:foot"] {
        case "yes", "true", "1": return WayTraversal(roadClass: roadClass, forwardSpeedKmh: speed, backwardSpeedKmh: nil)
        case "-1", "reverse": return WayTraversal(roadClass: roadClass, forwardSpeedKmh: nil, backwardSpeedKmh: speed)
        default: return WayTraversal(roadClass: roadClass, forwardSpeedKmh: speed, backwardSpeedKmh: speed)
        }
    }
}
