import ArgumentParser
import FixRecords
import Foundation
import GeoKit
import Ingest
import JSONKit
import Routing

extension Mytaxi {
    /// `mytaxi route --graph CITY.graph --from LON,LAT --to LON,LAT`: one route, explained.
    struct RouteCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "route",
            abstract: "The fastest route between two points: duration, distance, snapping and, on request, its geometry.",
            discussion: """
                Prints `duration_s`, `distance_m`, the snap distance of each end (to the road the \
                route uses there: the nearest, or another within --snap-radius when that is faster) \
                and the departure used, one "name: value" per line; with --geojson, a GeoJSON \
                Feature (LineString from the first point to the last, properties as above) instead. With --arrive-by, \
                also whether a taxi called at the departure time gets there in time (SPEC R6): \
                expected wait for the taxi plus the drive, the arrival and the margin, and a warning \
                on standard error when late. Exit status 1 when an end is too far from a road or no \
                path exists, 2 when the graph cannot be read.
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

        @Option(name: .customLong("arrive-by"), help: ArgumentHelp(
            "A deadline, ISO 8601: answer whether a taxi called at the departure time arrives by then.", valueName: "TIME"))
        var arriveBy: String?

        @Option(name: .customLong("expected-wait"), help: ArgumentHelp(
            "Expected wait for a taxi to arrive, in seconds, for --arrive-by.", valueName: "SECONDS"))
        var expectedWait: Double = 300

        func validate() throws {
            guard Self.coordinate(from) != nil else { throw ValidationError("--from must be lon,lat in degrees, got '\(from)'") }
            guard Self.coordinate(to) != nil else { throw ValidationError("--to must be lon,lat in degrees, got '\(to)'") }
            if let depart, FixTime.date(iso8601: depart) == nil {
                throw ValidationError("--depart must be ISO 8601 such as 2026-11-23T08:00:00-05:00, got '\(depart)'")
            }
            if let arriveBy, FixTime.date(iso8601: arriveBy) == nil {
                throw ValidationError("--arrive-by must be ISO 8601 such as 2026-11-23T09:00:00-05:00, got '\(arriveBy)'")
            }
            guard expectedWait >= 0 else { throw ValidationError("--expected-wait must be 0 or more seconds") }
        }

        func run() throws {
            let router = try router.loadRouter()
            let start = Self.coordinate(from)!, end = Self.coordinate(to)!
            let when = depart.flatMap(FixTime.date(iso8601:)) ?? Date()
            let route: Routing.Route
            do {
                route = try router.route(from: start, to: end, depart: when, includeGeometry: geojson)
            } catch {
                printError("no route: \(error)")
                throw ExitCode(1)
            }
            let style = Date.ISO8601FormatStyle(timeZone: router.timeZone)
            let leaving = when.formatted(style)
            var reach: Reachability?
            if let deadline = arriveBy.flatMap(FixTime.date(iso8601:)) {
                reach = try? router.reachability(from: start, to: end, depart: when, deadline: deadline, expectedWait: expectedWait)
                if let reach, !reach.reachable {
                    printError("warning: a taxi called at \(leaving) arrives \(Int((-reach.marginSeconds).rounded())) s after "
                               + "\(deadline.formatted(style)) (wait \(Int(expectedWait)) s + drive \(Int(reach.driveSeconds.rounded())) s)")
                }
            }
            guard geojson else {
                var lines = [
                    "duration_s: \(String(format: "%.1f", route.durationSeconds))",
                    "distance_m: \(String(format: "%.1f", route.distanceMetres))",
                    "from_snap_m: \(String(format: "%.1f", route.sourceSnapMetres))",
                    "to_snap_m: \(String(format: "%.1f", route.targetSnapMetres))",
                    "depart: \(leaving)",
                ]
                if let reach {
                    lines += [
                        "arrival_with_taxi: \(reach.arrival.formatted(style))",
                        "reachable: \(reach.reachable ? "yes" : "no")",
                        "margin_s: \(String(format: "%.1f", reach.marginSeconds))",
                    ]
                }
                print(lines.joined(separator: "\n"))
                return
            }
            var properties: [String: JSONValue] = [
                "durationSeconds": .number(route.durationSeconds), "distanceMetres": .number(route.distanceMetres),
                "fromSnapMetres": .number(route.sourceSnapMetres), "toSnapMetres": .number(route.targetSnapMetres),
                "depart": .string(leaving),
            ]
            if let reach {
                properties["arrivalWithTaxi"] = .string(reach.arrival.formatted(style))
                properties["reachable"] = .bool(reach.reachable)
                properties["marginSeconds"] = .number(reach.marginSeconds)
            }
            let feature: JSONValue = .object([
                "type": .string("Feature"),
                "geometry": .object([
                    "type": .string("LineString"),
                    "coordinates": .array(route.geometry.map { .array([.number($0.longitude), .number($0.latitude)]) }),
                ]),
                "properties": .object(properties),
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
