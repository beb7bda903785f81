import ArgumentParser
import Foundation
import Routing

/// The options every routing command shares: the graph file, the speed
/// profile, the city's time zone and the snapping limit.
struct RouterArguments: ParsableArguments {
    @Option(help: ArgumentHelp("The road graph file (`mytaxi graph build`).", valueName: "CITY.graph"))
    var graph: String

    @Option(name: .customLong("speed-profile"), help: ArgumentHelp(
        "A weekly speed profile file (docs/speed-profile.md). (default: the graph's own, else the built-in dense-city profile)",
        valueName: "FILE"))
    var speedProfile: String?

    @Option(name: .customLong("time-zone"), help: ArgumentHelp(
        "The city's time zone, for the hour of the week of a departure, e.g. America/New_York. (default: the graph's, else UTC)",
        valueName: "NAME"))
    var timeZone: String?

    @Option(name: .customLong("max-snap"), help: ArgumentHelp(
        "Points farther than this from every road are refused, in metres.", valueName: "METRES"))
    var maxSnapMetres: Double = 250

    /// Loads the router or exits: 2 with the reason when a file cannot be used.
    func loadRouter() throws -> Router {
        var profile: SpeedProfile?
        if let speedProfile {
            do {
                profile = try SpeedProfile(parsing: String(contentsOfFile: speedProfile, encoding: .utf8))
            } catch {
                printError("\(speedProfile): \(error)")
                throw ExitCode(2)
            }
        }
        var zone: TimeZone?
        if let timeZone {
            guard let named = TimeZone(identifier: timeZone) else {
                printError("--time-zone: unknown time zone '\(timeZone)' (use an IANA name such as Europe/Monaco)")
                throw ExitCode(2)
            }
            zone = named
        }
        do {
            return try RoutingGraph.load(
                from: URL(fileURLWithPath: graph), speedProfile: profile, timeZone: zone, maxSnapDistanceMetres: maxSnapMetres)
        } catch {
            printError("\(graph): \(error)")
            throw ExitCode(2)
        }
    }
}

/// Parses a departure time given as ISO 8601 (`2026-11-23T08:00:00-05:00`, `...Z`).
func departure(_ text: String) -> Date? {
    if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) { return date }
    return try? Date(text, strategy: .iso8601)
}
