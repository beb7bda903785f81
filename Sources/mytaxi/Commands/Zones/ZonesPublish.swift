import ArgumentParser
import GeoKit
import Zones
import Foundation
import ZoneTools

extension Mytaxi.Zones {
    /// `mytaxi zones publish FILE --to URL --token-stdin`: upload a zone file and activate it.
    struct Publish: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Upload a zone file to the running service and make it the active zone set.",
            discussion: """
                Sends the file to `POST /v1/zone-sets` (as a planner or administrator, with a token \
                from `POST /v1/sessions` read from standard input with --token-stdin or from the \
                MYTAXI_TOKEN environment variable), then activates the new version with `POST \
                /v1/zone-sets/{version}/activation`. Prints the version and any warnings. Exit status: \
                0 when active, 1 when the service refused the file (its problems are listed, one per \
                line, "ID: problem"), 2 when the file cannot be read or the service cannot be reached \
                or refuses the call (e.g. a wrong token).
                """)

        @Argument(help: "The zone file (GeoJSON FeatureCollection).")
        var file: String

        @Option(help: ArgumentHelp("The service's API, e.g. http://127.0.0.1:8080.", valueName: "URL"))
        var to: String

        /// A planner's or administrator's bearer token.
        @OptionGroup var bearer: BearerTokenArguments

        @Option(help: ArgumentHelp("A note stored with the version.", valueName: "TEXT"))
        var comment: String?

        @Flag(name: .customLong("no-activate"), help: "Upload only; leave the active version as it is.")
        var noActivate = false

        func validate() throws {
            guard let url = URL(string: to), url.scheme == "http" || url.scheme == "https", url.host != nil else {
                throw ValidationError("--to must be an http:// or https:// URL, not '\(to)'")
            }
            guard bearer.isGiven else {
                throw ValidationError("give a planner's or administrator's token with --token-stdin or MYTAXI_TOKEN")
            }
        }

        func run() async throws {
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: file))
            } catch {
                printError("cannot read \(file): \((error as NSError).localizedDescription)")
                throw ExitCode(2)
            }
            guard let base = URL(string: to), let token = try bearer.resolve() else { throw ExitCode(2) }
            let client = ZoneServiceClient(base: base, token: token)
            do {
                switch try await client.upload(data, comment: comment) {
                case .refused(let problems):
                    printError("\(file): the service refused it, \(problems.count) problem(s):")
                    for problem in problems { printError(problem.description) }
                    throw ExitCode(1)
                case .stored(let version, let warnings):
                    for warning in warnings { printError("warning: \(warning)") }
                    if noActivate {
                        print("\(file): stored as version \(version) (not activated)")
                    } else {
                        try await client.activate(version: version)
                        print("\(file): stored as version \(version), now active")
                    }
                }
            } catch let error as ZoneServiceClient.ServiceError {
                printError("\(to): \(error)")
                throw ExitCode(2)
            }
        }
    }
}
