import ArgumentParser

/// The `mytaxi` command: the geo-engine of a city taxi service, from zone
/// files to the running dispatch service.
@main
struct Mytaxi: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mytaxi",
        abstract: "The geo-engine of a city taxi service: zones, ingest, routing, dispatch.",
        version: "0.1.0",
        groupedSubcommands: [
            CommandGroup(name: "Service", subcommands: [Serve.self, Decode.self, Dispatch.self, Accounts.self, Db.self]),
            CommandGroup(name: "Zones (planners)", subcommands: [Zones.self]),
            CommandGroup(name: "Routing", subcommands: [Graph.self, Eta.self, RouteCommand.self]),
        ]
    )
}
