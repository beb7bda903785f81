/// The car (taxi) profile: public roads from motorways to service roads.
///
/// - Classes and default speeds: free-flow speeds for a dense city, in
///   ``defaultSpeedsKmh``, lower than OSRM's open-country defaults.
/// - `maxspeed` (and `maxspeed:forward`/`:backward`) replaces the default
///   with ``maxspeedFactor`` times the legal limit: traffic rarely flows at the
///   limit. `none` and unreadable values keep the class default.
/// - `oneway`: `yes`/`true`/`1` forward only, `-1`/`reverse` backward only,
///   `no`/`false`/`0` both ways; `reversible`/`alternating` ways are left out
///   (their direction changes by time). Without an explicit value, motorways,
///   motorway links and `junction=roundabout`/`circular` are one-way.
/// - Access: `access` < `vehicle` < `motor_vehicle` < `motorcar`, the most
///   specific tag present decides; `no`, `private` and the like close the way.
/// - Lanes: each direction's ``LaneClass`` from `lanes:forward`/`:backward`,
///   else `lanes` (all of them on a one-way road, half on a two-way road);
///   untagged ways stay ``LaneClass/untagged``.
/// - `area=yes` (squares drawn as polygons) and `service=emergency_access` are left out.
/// - Traffic signals: nodes tagged `highway=traffic_signals` (``SignalApproach``).
/// - Turn restrictions: `restriction:motorcar`, else `restriction:motor_vehicle`,
///   else `restriction`; `except=motorcar` exempts.
public struct CarProfile: RoutingProfile {
    /// Default free-flow speed of each routable `highway` value, with its road class.
    public static let defaultSpeedsKmh: [String: (roadClass: RoadClass, speed: Double)] = [
        "motorway": (.motorway, 80), "motorway_link": (.motorwayLink, 45),
        "trunk": (.trunk, 60), "trunk_link": (.trunkLink, 40),
        "primary": (.primary, 45), "primary_link": (.primaryLink, 30),
        "secondary": (.secondary, 40), "secondary_link": (.secondaryLink, 30),
        "tertiary": (.tertiary, 35), "tertiary_link": (.tertiaryLink, 25),
        "unclassified": (.unclassified, 30), "residential": (.residential, 25),
        "living_street": (.livingStreet, 10), "service": (.service, 15),
    ]

    /// Share of the legal limit a car drives at when `maxspeed` is known.
    public static let maxspeedFactor = 0.8

    private static let access = AccessTags(
        hierarchy: ["access", "vehicle", "motor_vehicle", "motorcar"],
        denied: ["no", "private", "agricultural", "forestry", "emergency", "psv", "bus", "military"])

    public let name = "car"
    public let restrictionKeys = ["restriction:motorcar", "restriction:motor_vehicle", "restriction"]
    public let restrictionExemptions: Set<String> = ["motorcar", "motor_vehicle"]
    public let trafficSignalValues: Set<String> = ["traffic_signals"]

    /// Creates the car profile.
    public init() {}

    public func traversal(of tags: [String: String]) -> WayTraversal? {
        guard let highway = tags["highway"], let (roadClass, defaultSpeed) = Self.defaultSpeedsKmh[highway],
              tags["area"] != "yes", tags["service"] != "emergency_access",
              Self.access.allows(tags) else { return nil }

        let forward: Bool, backward: Bool
        switch tags["oneway"] {
        case "yes", "true", "1": (forward, backward) = (true, false)
        case "-1", "reverse": (forward, backward) = (false, true)
        case "no", "false", "0": (forward, backward) = (true, true)
        case "reversible", "alternating": return nil
        default:
            let implied = highway == "motorway" || highway == "motorway_link"
                || tags["junction"] == "roundabout" || tags["junction"] == "circular"
            (forward, backward) = (true, !implied)
        }

        let general = tags["maxspeed"].flatMap(MaxSpeed.kilometresPerHour)
        func speed(_ directionKey: String) -> Double {
            let limit = tags[directionKey].flatMap(MaxSpeed.kilometresPerHour) ?? general
            return limit.map { $0 * Self.maxspeedFactor } ?? defaultSpeed
        }
        let oneWay = forward != backward
        return WayTraversal(roadClass: roadClass,
                            forwardSpeedKmh: forward ? speed("maxspeed:forward") : nil,
                            backwardSpeedKmh: backward ? speed("maxspeed:backward") : nil,
                            forwardLanes: LaneClass(lanesPerDirection: LaneCount.perDirection(tags, forward: true, oneWay: oneWay)),
                            backwardLanes: LaneClass(lanesPerDirection: LaneCount.perDirection(tags, forward: false, oneWay: oneWay)))
    }
}
