import ArgumentParser
import Foundation
import GeoKit
import JSONKit
import ServeConfig
import Zones

extension Mytaxi.Zones {
    /// `mytaxi zones neighbours --zones FILE [--within METRES]`.
    struct Neighbours: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List each zone's neighbours: zones sharing a border, or within a distance.",
            discussion: """
                Prints one line per zone, in id order: `ID: N1, N2, ...`. With --within, zones \
                whose areas are at most that many metres apart are neighbours too, and each is \
                followed by its distance, e.g. `N3 (120 m)`. --json prints one object mapping \
                each id to its neighbours with their distances.
                """)

        @Option(help: ArgumentHelp("The zone file (GeoJSON FeatureCollection).", valueName: "FILE"))
        var zones: String

        @OptionGroup var zoneFile: ZoneFileArguments

        @Option(help: ArgumentHelp("Also count zones at most this far apart, in metres.", valueName: "METRES"))
        var within: Double?

        @Flag(help: "Print one JSON object instead of lines.")
        var json = false

        func validate() throws {
            if let within, !(within >= 0 && within.isFinite) {
                throw ValidationError("--within must be a non-negative number of metres")
            }
        }

        func run() throws {
            let loaded = try loadZonesOrExit(path: zones, arguments: zoneFile)
            let found = try ZoneNeighbours(zoneSet: loaded.zoneSet, withinMetres: within)
            if json {
                var object: [String: JSONValue] = [:]
                for zone in loaded.zoneSet.zones {
                    object[zone.id.text] = .array(found[zone.id].map {
                        .object(["id": .string($0.id.text), "distanceMetres": .number(($0.distanceMetres * 10).rounded() / 10),
                                 "sharesBorder": .bool($0.sharesBorder)])
                    })
                }
                print(JSONValue.object(object).serialized)
                return
            }
            for zone in loaded.zoneSet.zones {
                let names = found[zone.id].map { neighbour in
                    within == nil ? neighbour.id.text : "\(neighbour.id.text) (\(Int(neighbour.distanceMetres.rounded())) m)"
                }
                print("\(zone.id.text): \(names.joined(separator: ", "))")
            }
        }
    }
}
