import ArgumentParser
import Foundation
import GeoKit
import Places

extension Mytaxi.PlacesCommand {
    /// `mytaxi places reverse --graph CITY.graph [--at LON,LAT] [--json]`.
    struct Reverse: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Name the address of a point, or its street and cross street.",
            discussion: """
                Prints `label<TAB>metres`: the nearest address within \
                \(Int(ReverseGeocode.addressReachMetres)) m, else the street within \
                \(Int(ReverseGeocode.streetReachMetres)) m and its nearest cross street \
                (`Broadway near West 42nd Street`); exits 1 when nothing is that near. Without --at: \
                one `lon,lat` per line on standard input, one answer per line, an empty line \
                when none. --json prints a JSON object instead.
                """)

        @OptionGroup var file: PlaceFileArguments

        @Option(name: .customLong("at"), parsing: .unconditional, help: ArgumentHelp(
            "The point (a leading minus is fine); omitted: read points from standard input.", valueName: "LON,LAT"))
        var point: String?

        @Flag(help: "Print the answer as a JSON object.")
        var json = false

        func validate() throws {
            _ = try point.map { try parseCoordinate($0, name: "--at") }
        }

        func run() throws {
            let index = try file.loadIndex()
            guard let point else {
                var lineNumber = 0
                while let line = readLine() {
                    lineNumber += 1
                    guard let coordinate = try? parseCoordinate(line, name: "line \(lineNumber)") else {
                        printError("line \(lineNumber): expected `lon,lat`, got '\(line)'")
                        print("")
                        continue
                    }
                    print(index.reverse(coordinate).map(format) ?? "")
                }
                return
            }
            guard let answer = index.reverse(try parseCoordinate(point, name: "--at")) else {
                printError("nothing named within \(Int(ReverseGeocode.streetReachMetres)) m of \(point)")
                throw ExitCode(1)
            }
            print(format(answer))
        }

        private func format(_ answer: ReverseGeocode) -> String {
            json ? String(decoding: PlaceJSON.reverse(answer), as: UTF8.self) : "\(answer.label)\t\(Int(answer.distanceMetres.rounded()))"
        }
    }
}
