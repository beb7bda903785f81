import ArgumentParser
import Foundation
import Routing

/// The options every routing command shares: the graph file, the speed
/// profile (or free flow), the city's time zone, the snapping limit and radius.
struct RouterArguments: ParsableArguments {
    @Option(help: ArgumentHelp("The road graph file (`mytaxi graph build`).", valueName: "CITY.graph"))
    var graph: String

    @Option(name: .customLong("speed-profile"), help: ArgumentHelp(
        "A weekly speed profile file (docs/speed-profile.md) instead of the graph's own. (default: the graph's)",
        valueName: "FILE"))
    var speedProfile: String?

    @Flag(name: .customLong("free-flow"), help: ArgumentHelp(
        "Route at free flow (no congestion in any hour) instead of the speed profile."))
    var freeFlow = false

    @Option(name: .customLong("time-zone"), help: ArgumentHelp(
        "The city's time zone, for the hour of the week of a departure, e.g. America/New_York. (default: the graph's, else UTC)",
        valueName: "NAME"))
    var timeZone: String?

    @Option(name: .customLong("max-snap"), help: ArgumentHelp(
        "Points farther than this from every road are refused, in metres.", valueName: "METRES"))
    var maxSnapMetres: Double = 250

    @Option(name: .customLong("snap-radius"), help: ArgumentHelp(
        "Roads within this distance of a point are all candidates for its end of a route, besides the nearest, "
            + "and the fastest route picks one (GPS in street canyons is often 10-30 m off), in metres; 0 uses the nearest road only.",
        valueName: "METRES"))
    var snapRadiusMetres: Double = RoadRouter.defaultSnapRadiusMetres

    /// Refuses a negative or infinite snap radius, and two speed profiles,
    /// before anything is loaded.
    func validate() throws {
        guard snapRadiusMetres >= 0, snapRadiusMetres.isFinite else {
            throw ValidationError("--snap-radius must be a distance of 0 metres or more")
        }
        guard !(freeFlow && speedProfile != nil) else {
            throw ValidationError("--free-flow and --speed-profile exclude each other")
        }
    }

    /// Loads the router or exits: 2 with the reason when a file cannot be
    /// used. A graph without a time zone, when --time-zone gives none
    /// either, is warned of on standard error: its hours are UTC's.
    func loadRouter() throws -> RoadRouter {
        let profile: SpeedProfile? = try freeFlow ? .freeFlow : speedProfile.map(readSpeedProfile)
        let zone: TimeZone?
        do {
            zone = try timeZone.map(cityTimeZone)
        } catch {
            printError("--time-zone: \(error.message)")
            throw ExitCode(2)
        }
        do {
            let contents = try GraphFile.read(from: URL(fileURLWithPath: graph))
            if zone == nil, RoutingGraph.timeZone(in: contents) == nil {
                printError(RoutingGraph.missingTimeZoneWarning(graphPath: graph))
            }
            return try RoutingGraph.router(
                for: contents, speedProfile: profile, timeZone: zone, maxSnapDistanceMetres: maxSnapMetres,
                snapRadiusMetres: snapRadiusMetres)
        } catch {
            printError("\(graph): \(error)")
            throw ExitCode(2)
        }
    }
}

/// Reads a speed profile file or exits 2 naming the file and what is wrong with it.
func readSpeedProfile(_ path: String) throws -> SpeedProfile {
    do {
        return try SpeedProfile(parsing: String(contentsOfFile: path, encoding: .utf8))
    } catch {
        printError("\(path): \(error)")
        throw ExitCode(2)
    }
}

/// The IANA time zone named `name`, or an error saying how to name one.
func cityTimeZone(_ name: String) throws(ValidationError) -> TimeZone {
    guard let zone = TimeZone(identifier: name) else {
        throw ValidationError("unknown time zone '\(name)' (use an IANA name such as Europe/Monaco)")
    }
    return zone
}
