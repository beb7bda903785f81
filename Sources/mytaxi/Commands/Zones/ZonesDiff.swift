import ArgumentParser
import GeoKit
import Foundation
import ZoneTools

extension Mytaxi.Zones {
    /// `mytaxi zones diff OLD NEW`: zones added, removed, renamed and reshaped.
    struct Diff: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Compare two versions of a zone file: zones added, removed, renamed, reshaped.",
            discussion: """
                Zones are matched by id. Prints one line per change in id order ("added ID \
                "NAME": AREA", "removed ...", "renamed ID: "OLD" → "NEW"", "reshaped ID "NAME": \
                OLD → NEW (±m², ±%), AREA redrawn"), then a summary. A zone is reshaped when more \
                than --min-area square metres of ground changed hands. Both files are read with \
                the same --id-property and --name-property. With --taxis and a token (--token-stdin \
                or MYTAXI_TOKEN), the live \
                fleet of a running service (`GET /v1/fleet`) is placed in both sets: how many taxis \
                would change zone, and each of them ("TX1: 12 → 13"). Exit status: 0 (changes are \
                not problems), 1 when a file has problems, 2 when one cannot be read or the service \
                cannot be asked.
                """)

        @Argument(help: "The zone file as it was.")
        var old: String

        @Argument(help: "The zone file as it is now.")
        var new: String

        @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the result.", valueName: "FILE"))
        var output: String?

        @Option(name: .customLong("min-area"), help: ArgumentHelp(
            "Ground changing hands up to this area is not a reshape, in square metres. (default: 1)",
            valueName: "M2"))
        var minimumArea = 1.0

        @Option(help: ArgumentHelp("A running service's API, to count the taxis that would change zone.",
                                   valueName: "URL"))
        var taxis: String?

        /// A bearer token for --taxis (dispatcher, planner or administrator).
        @OptionGroup var bearer: BearerTokenArguments

        @OptionGroup var zoneFile: ZoneSetArguments

        func validate() throws {
            guard minimumArea >= 0, minimumArea.isFinite else {
                throw ValidationError("--min-area must be a non-negative number of square metres")
            }
            if let taxis {
                guard let url = URL(string: taxis), url.scheme == "http" || url.scheme == "https", url.host != nil else {
                    throw ValidationError("--taxis must be an http:// or https:// URL, not '\(taxis)'")
                }
                guard bearer.isGiven else { throw ValidationError("--taxis needs a token: --token-stdin or MYTAXI_TOKEN") }
            }
        }

        func run() async throws {
            let before = try runZoneTool { () throws(ZoneToolError) in try zoneFile.load(old) }
            let after = try runZoneTool { () throws(ZoneToolError) in try zoneFile.load(new) }
            let diff = try ZoneDiff(old: before, new: after, minimumSquareMetres: minimumArea)
            var report = diff.report
            if let taxis, let base = URL(string: taxis), let token = try bearer.resolve() {
                let fleet: [ZoneServiceClient.TaxiPosition]
                do {
                    fleet = try await ZoneServiceClient(base: base, token: token).fleet()
                } catch {
                    printError("--taxis \(taxis): \(error)")
                    throw ExitCode(2)
                }
                report += try TaxiRezoning(taxis: fleet, old: before, new: after).report
            }
            try writeToolOutput(report.joined(separator: "\n"), to: output)
        }
    }
}
