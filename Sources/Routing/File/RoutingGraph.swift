import Foundation

/// A graph file ready to route on: the graph, its CCH topology, its city's
/// time zone and speed profile, and the zone of each edge when built with
/// zones (``EdgeZones``), as `mytaxi graph build` stores them.
///
/// The topology is the slow part of preparing a router (seconds on a large
/// city), so the build stores it in the ``topologySection``; a file without
/// one gets it computed at load time. Every graph file carries its speed
/// profile (since format version 3), so a route's times never silently
/// fall back to free flow; the time zone is optional, and a graph without
/// one reads departure hours in UTC, which its users must be told
/// (``missingTimeZoneWarning(graphPath:)``).
public enum RoutingGraph {
    /// The CCH topology (``CCHTopology/serialized()``).
    public static let topologySection = "cch"
    /// The IANA name of the city's time zone, UTF-8.
    public static let timeZoneSection = "timezone"
    /// The city's weekly speed profile, in its text form (docs/speed-profile.md).
    public static let speedProfileSection = "speedprf"

    /// The extra sections that make `graph` ready to route: its topology,
    /// the city's speed profile and, when known, its time zone.
    public static func sections(for graph: RoadGraph, topology: CCHTopology, timeZone: TimeZone?,
                                speedProfile: SpeedProfile) -> [String: [UInt8]] {
        var sections = [topologySection: topology.serialized(), speedProfileSection: Array(speedProfile.text.utf8)]
        if let timeZone { sections[timeZoneSection] = Array(timeZone.identifier.utf8) }
        return sections
    }

    /// The city's time zone the file stores; nil when it was built without one.
    public static func timeZone(in contents: GraphFile.Contents) -> TimeZone? {
        contents.extraSections[timeZoneSection].flatMap { TimeZone(identifier: String(decoding: $0, as: UTF8.self)) }
    }

    /// The speed profile the file stores.
    /// - Throws: ``GraphFileError/missingSection(_:)`` when it has none, or
    ///   the ``SpeedProfileError`` of a stored profile that does not parse.
    public static func speedProfile(in contents: GraphFile.Contents) throws -> SpeedProfile {
        guard let text = contents.extraSections[speedProfileSection] else {
            throw GraphFileError.missingSection(speedProfileSection)
        }
        return try SpeedProfile(parsing: String(decoding: text, as: UTF8.self))
    }

    /// What to tell, loudly, the user of a graph without a time zone: the
    /// profile's rush hours then fall at UTC hours, hours off in most cities.
    public static func missingTimeZoneWarning(graphPath: String) -> String {
        "warning: \(graphPath) has no time zone: departure hours are read in UTC, so the speed profile's rush hours "
            + "fall at the wrong time of day; rebuild it with `mytaxi graph build ... --time-zone NAME` (an IANA name, "
            + "e.g. America/New_York)"
    }

    /// Loads the graph file at `url` into a router (see
    /// ``router(for:speedProfile:timeZone:maxSnapDistanceMetres:snapRadiusMetres:)``).
    /// - Throws: ``GraphFileError``, ``CCHTopologyError`` or
    ///   ``SpeedProfileError`` naming what is wrong with the file.
    public static func load(from url: URL, speedProfile: SpeedProfile? = nil, timeZone: TimeZone? = nil,
                            maxSnapDistanceMetres: Double = 250,
                            snapRadiusMetres: Double = RoadRouter.defaultSnapRadiusMetres) throws -> RoadRouter {
        try router(for: GraphFile.read(from: url), speedProfile: speedProfile, timeZone: timeZone,
                   maxSnapDistanceMetres: maxSnapDistanceMetres, snapRadiusMetres: snapRadiusMetres)
    }

    /// A router on a graph file's contents. Arguments override what the
    /// file holds: `speedProfile` its profile, `timeZone` its time zone
    /// (UTC when neither gives one). `snapRadiusMetres` is the router's
    /// ``RoadRouter/snapRadiusMetres``.
    /// - Throws: ``GraphFileError``, ``CCHTopologyError`` or
    ///   ``SpeedProfileError`` naming what is wrong with the file.
    public static func router(for contents: GraphFile.Contents, speedProfile: SpeedProfile? = nil, timeZone: TimeZone? = nil,
                              maxSnapDistanceMetres: Double = 250,
                              snapRadiusMetres: Double = RoadRouter.defaultSnapRadiusMetres) throws -> RoadRouter {
        let graph = contents.graph
        let topology = try contents.extraSections[topologySection].map { try CCHTopology(serialized: $0, for: graph) }
        let profile = try speedProfile ?? Self.speedProfile(in: contents)
        let zones = try EdgeZones(sections: contents.extraSections, edgeCount: graph.edgeCount)
        return RoadRouter(
            graph: graph, topology: topology, speeds: ProfiledEdgeSpeeds(graph: graph, profile: profile, zones: zones),
            timeZone: timeZone ?? Self.timeZone(in: contents) ?? TimeZone(identifier: "UTC")!,
            maxSnapDistanceMetres: maxSnapDistanceMetres, snapRadiusMetres: snapRadiusMetres, tripOverheadSeconds: profile.tripOverheadSeconds,
            edgeNames: try EdgeNames(sections: contents.extraSections, edgeCount: graph.edgeCount))
    }
}
