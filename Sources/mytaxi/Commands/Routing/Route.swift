import ArgumentParser
import Foundation
import GeoKit
import Routing

extension Mytaxi {
    /// `mytaxi route --graph CITY.graph --from LON,LAT --to LON,LAT`: one route, explained.
    struct RouteCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "route",
            abstract: "The fastest route between two points: duration, distance, snapping and, on request, its geometry.",
            discussion: """
                Prints `duration_s`, `distance_m`, the snap distance of each end and the departure \
                used, one "name: value" per line; with --geojson, a GeoJSON Feature (LineString \
                from the first point to the last, properties as above) instead. Exit status 1 when \
                an end is too far from a road or no path exists, 2 when the graph cannot be read.
                """)

        @OptionGroup var router: RouterArguments

        @Option(parsing: .unconditional, help: ArgumentHelp("Start, as lon,lat (a leading minus is fine).", valueName: "LON,LAT"))
        var from: String

        @Option(parsing: .unconditional, help: ArgumentHelp("Destination, as lon,lat.", valueName: "LON,LAT"))
        var to: String

        @Option(help: ArgumentHelp("Departure time, ISO 8601. (default: now)", valueName: "TIME"))
        var depart: String?

        @Flag(help: "Print the route as a GeoJSON Feature with its geometry.")
        var geojson = false

        func validate() throws {
            guard Self.coordinate(from) != nil else { throw ValidationError("--from must be lon,lat in degrees, got '\(from)'") }
            guard Self.coordinate(to) != nil else { throw ValidationError("--to must be lon,lat in degrees, got '\(to)'") }
            if let depart, departure(depart) == nil {
                throw ValidationError("--depart must be ISO 8601 such as 2026-11-23T08:00:00-05:00, got '\(depart)'")
            }
        }

        func run() throws {
            let router = try router.loadRouter()
            let start = Self.coordinate(from)!, end = Self.coordinate(to)!
            let when = depart.flatMap(departure) ?? Date()
            let route: Routing.Route
            do {
                route = try router.route(from: start, to: end, depart: when, includeGeometry: geojson)
            } catch {
                printError("no route: \(error)")
                throw ExitCode(1)
            }
            let leaving = when.formatted(Date.ISO8601FormatStyle(timeZone: router.timeZone))
            guard geojson else {
                print("""
                    duration_s: \(String(format: "%.1f", route.durationSeconds))
                    distance_m: \(String(format: "%.1f", route.distanceMetres))
                    from_snap_m: \(String(format: "%.1f", route.sourceSnapMetres))
                    to_snap_m: \(String(format: "%.1f", route.targetSnapMetres))
                    depart: \(leaving)
                    """)
                return
            }
            let feature: JSONValue = .object([
                "type": .string("Feature"),
                "geometry": .object([
                    "type": .string("LineString"),
                    "coordinates": .array(route.geometry.map { .array([.number($0.longitude), .number($0.latitude)]) }),
                ]),
                "properties": .object([
                    "durationSeconds": .number(route.durationSeconds), "distanceMetres": .number(route.distanceMetres),
                    "fromSnapMetres": .number(route.sourceSnapMetres), "toSnapMetres": .number(route.targetSnapMetres),
                    "depart": .string(leaving),
                ]),
            ])
            print(feature.serialized)
        }

        static func coordinate(_ text: String) -> Coordinate? {
            let parts = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 2 else { return nil }
            let coordinate = Coordinate(longitude: parts[0], latitude: parts[1])
            return coordinate.isInRange ? coordinate : nil
        }
    }
}
