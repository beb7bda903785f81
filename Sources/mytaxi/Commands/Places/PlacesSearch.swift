import ArgumentParser
import Foundation
import GeoKit
import Places

extension Mytaxi.PlacesCommand {
    /// `mytaxi places search --graph CITY.graph [QUERY] [--near LON,LAT] [--limit N] [--json]`.
    struct Search: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Find the places a typed text names, best first.",
            discussion: """
                With a QUERY: up to --limit answers, one per line: `lon,lat<TAB>kind<TAB>confidence\
                <TAB>label`, kind being address, street or place, confidence 0 to 1, and a note on \
                the next line (starting `note:`) when the search changed what was asked (a house \
                number the map lacks answered with its street). Without a QUERY: one query per line \
                on standard input, the best answer per line, an empty line when none (for \
                geocoding a list). --near ranks equal matches by distance from that point. --json \
                prints each answer as a JSON object instead.
                """)

        @OptionGroup var file: PlaceFileArguments

        @Argument(help: "What to look for (\"350 5th Ave\", \"penn station\"); omitted: read queries from standard input.")
        var query: String?

        @Option(parsing: .unconditional, help: ArgumentHelp("Rank equal matches by distance from here (a leading minus is fine).",
                                                            valueName: "LON,LAT"))
        var near: String?

        @Option(help: ArgumentHelp("At most this many answers (1 to \(PlaceIndex.maximumLimit)).", valueName: "N"))
        var limit = 5

        @Flag(help: "Print each answer as a JSON object.")
        var json = false

        func validate() throws {
            guard (1...PlaceIndex.maximumLimit).contains(limit) else {
                throw ValidationError("--limit must be 1 to \(PlaceIndex.maximumLimit)")
            }
            _ = try near.map { try parseCoordinate($0, name: "--near") }
        }

        func run() throws {
            let index = try file.loadIndex()
            let point = try near.map { try parseCoordinate($0, name: "--near") }
            guard let query else {
                while let line = readLine() {
                    let best = index.search(line, near: point, limit: 1).first
                    print(best.map(format) ?? "")
                }
                return
            }
            let matches = index.search(query, near: point, limit: limit)
            guard !matches.isEmpty else {
                printError("no place matches '\(query)'")
                throw ExitCode(1)
            }
            for match in matches { print(format(match)) }
        }

        private func format(_ match: PlaceMatch) -> String {
            if json { return String(decoding: PlaceJSON.match(match), as: UTF8.self) }
            let line = "\(match.place.coordinate)\t\(match.place.kind.rawValue)\t\(String(format: "%.2f", match.confidence))\t\(match.place.label)"
            return match.note.map { "\(line)\nnote: \($0)" } ?? line
        }
    }
}
