import ArgumentParser
import Foundation

/// The `mytaxi` command: the geo-engine of a city taxi service, from zone
/// files to the running dispatch service.
@main
struct Mytaxi: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mytaxi",
        abstract: "The geo-engine of a city taxi service: zones, ingest, routing, dispatch.",
        version: "0.1.0",
        groupedSubcommands: [
            CommandGroup(name: "Service", subcommands: [Serve.self, Simulate.self, Decode.self, Dispatch.self, Accounts.self, Devices.self, Db.self]),
            CommandGroup(name: "Zones (planners)", subcommands: [Zones.self]),
            CommandGroup(name: "Routing", subcommands: [Graph.self, Eta.self, RouteCommand.self, PlacesCommand.self]),
        ]
    )

    /// Exit status 2 on misuse (an unknown flag, a missing or malformed
    /// value), as shell tools have it, where the argument parser would say
    /// 64; 1 stays for a problem in the data, 0 for success.
    static let misuseStatus: Int32 = 2

    /// Runs the command the arguments name, exiting with ``misuseStatus``
    /// after the usage message when they do not parse.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
            FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            Foundation.exit(misuseStatus)
        }
    }
}
