import Foundation

/// A graph file ready to route on: the graph, its CCH topology, its city's
/// time zone and speed profile, and the zone of each edge when built with
/// zones (``EdgeZones``), as `mytaxi graph build` stores them.
///
/// The topology is the slow part of preparing a router (seconds on a large
/// city), so the build stores it in the ``topologySection``; a file without
/// one (written by an older build) gets it computed at load time.
public enum RoutingGraph {
    /// The CCH topology (``CCHTopology/serialized()``).
    public static let topologySection = "cch"
    /// The IANA name of the city's time zone, UTF-8.
    public static let timeZoneSection = "timezone"
    /// The city's weekly speed profile, in its text form (docs/speed-profile.md).
    public static let speedProfileSection = "speedprf"

    /// The extra sections that make `graph` ready to route: its topology and,
    /// when given, the city's time zone and speed profile text.
    public static func sections(for graph: RoadGraph, topology: CCHTopology, timeZone: TimeZone?,
                                speedProfileText: String?) -> [String: [UInt8]] {
        var sections = [topologySection: topology.serialized()]
        if let timeZone { sections[timeZoneSection] = Array(timeZone.identifier.utf8) }
        if let speedProfileText { sections[speedProfileSection] = Array(speedProfileText.utf8) }
        return sections
    }

    /// Loads the graph file at `url` into a router. Arguments override what
    /// the file holds; without either, the time zone is UTC and the profile
    /// ``SpeedProfile/denseCity``. `snapRadiusMetres` is the router's
    /// ``Router/snapRadiusMetres``.
    /// - Throws: ``GraphFileError``, ``CCHTopologyError`` or
    ///   ``SpeedProfileError`` naming what is wrong with the file.
    public static func load(from url: URL, speedProfile: SpeedProfile? = nil, timeZone: TimeZone? = nil,
                            maxSnapDistanceMetres: Double = 250,
                            snapRadiusMetres: Double = Router.defaultSnapRadiusMetres) throws -> Router {
        let contents = try GraphFile.read(from: url)
        let graph = contents.graph
        let topology = try contents.extraSections[topologySection].map { try CCHTopology(serialized: $0, for: graph) }
        let storedZone = contents.extraSections[timeZoneSection].flatMap { TimeZone(identifier: String(decoding: $0, as: UTF8.self)) }
        let storedProfile = try contents.extraSections[speedProfileSection].map {
            try SpeedProfile(parsing: String(decoding: $0, as: UTF8.self))
        }
        let profile = speedProfile ?? storedProfile ?? .denseCity
        let zones = try EdgeZones(sections: contents.extraSections, edgeCount: graph.edgeCount)
        return Router(
            graph: graph, topology: topology, speeds: ProfiledEdgeSpeeds(graph: graph, profile: profile, zones: zones),
            timeZone: timeZone ?? storedZone ?? TimeZone(identifier: "UTC")!,
            maxSnapDistanceMetres: maxSnapDistanceMetres, snapRadiusMetres: snapRadiusMetres, tripOverheadSeconds: profile.tripOverheadSeconds)
    }
}
