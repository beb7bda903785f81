import ArgumentParser
import Foundation
import Routing

/// The roads as a simulation's taxis really drive them: a router on the
/// graph at hidden "true" speeds (a speed profile of their own, slowed on
/// named roads by incidents) that the service does not know and can only
/// learn from the taxis' fixes. `mytaxi simulate learning`, `run` and
/// `plan` build it the same way.
struct TrueSpeeds {
    /// The router the simulated taxis drive with.
    let router: RoadRouter
    /// The incidents, in the order given.
    let incidents: [RoadIncident]

    /// The true speeds on `router`'s graph, read again from `graphPath` for
    /// its road names and edge zones: `profile`'s speeds and trip overhead
    /// when given, else `router`'s own, with `incidents`
    /// (`ROAD NAME,FROM,MINUTES,FACTOR`, FROM minutes after `start`) on top.
    /// With neither, `router` itself, and the file is not read.
    /// - Throws: exit status 2, having said why: the graph file cannot be
    ///   read, or an incident cannot be used (`--incident: ...`: a wrong
    ///   field, a road the graph does not name, a graph without names).
    init(over router: RoadRouter, graphPath: String, profile: SpeedProfile?, incidents texts: [String], start: Date) throws {
        guard texts.count <= IncidentSpeeds.maxIncidents else {
            printError("--incident: at most \(IncidentSpeeds.maxIncidents) incidents, not \(texts.count)")
            throw ExitCode(2)
        }
        guard profile != nil || !texts.isEmpty else {
            self.router = router
            incidents = []
            return
        }
        let contents: GraphFile.Contents
        let names: EdgeNames?
        let zones: EdgeZones?
        do {
            contents = try GraphFile.read(from: URL(fileURLWithPath: graphPath))
            names = try EdgeNames(sections: contents.extraSections, edgeCount: contents.graph.edgeCount)
            zones = try EdgeZones(sections: contents.extraSections, edgeCount: contents.graph.edgeCount)
        } catch {
            printError("\(graphPath): \(error)")
            throw ExitCode(2)
        }
        do {
            incidents = try texts.map { try RoadIncident(parsing: $0, names: names, simulationStart: start) }
        } catch {
            printError("--incident: \(error)")
            throw ExitCode(2)
        }
        let base: any EdgeSpeedSource = profile.map { ProfiledEdgeSpeeds(graph: router.graph, profile: $0, zones: zones) } ?? router.speeds
        self.router = RoadRouter(
            graph: router.graph, topology: router.topology, speeds: IncidentSpeeds(base: base, incidents: incidents),
            timeZone: router.timeZone, maxSnapDistanceMetres: router.maxSnapDistanceMetres,
            snapRadiusMetres: router.snapRadiusMetres, tripOverheadSeconds: profile?.tripOverheadSeconds ?? router.tripOverheadSeconds)
    }
}
