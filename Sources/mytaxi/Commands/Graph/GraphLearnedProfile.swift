import ArgumentParser
import Foundation
import PostgresStorage
import Routing
import ServeConfig
import SQLiteStorage
import Storage

extension Mytaxi.Graph {
    /// `mytaxi graph learned-profile`: what the service learned from its fleet.
    struct LearnedProfile: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "learned-profile",
            abstract: "Work with the weekly speeds the service learned from its fleet's fixes.",
            subcommands: [Export.self])

        /// `mytaxi graph learned-profile export`: the learned weekly speeds as a speed profile file.
        struct Export: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Write the learned weekly speeds in the speed-profile format (docs/speed-profile.md).",
                discussion: """
                    Reads what `mytaxi serve` saved (every 10 minutes and when it stops) from its data \
                    directory or database, for the graph it learned on, and writes one factor per road \
                    class and hour (the free-flow-weighted mean of its roads), then per lane class and \
                    area zone what is left: a file to read, to compare with a fitted profile \
                    (`mytaxi graph info`), or to ship with the graph (`mytaxi graph build --speed-profile`). \
                    The trip overhead is the graph's profile's.

                    Exit status: 0 when written, 1 when nothing was learned on this graph, 2 when a \
                    file or the store cannot be read.
                    """)

            @OptionGroup var router: RouterArguments

            @Option(name: .customLong("data-dir"), help: ArgumentHelp("The service's data directory.", valueName: "DIR"))
            var dataDir: String?

            @OptionGroup var database: DatabaseURLOption

            @Option(name: .shortAndLong, help: ArgumentHelp("The profile file to write.", valueName: "FILE"))
            var output: String

            func validate() throws {
                guard dataDir != nil || database.database != nil || DatabaseEnvironment.url != nil else {
                    throw ValidationError("missing --data-dir DIR (or --database postgres://..., or $\(DatabaseEnvironment.variable))")
                }
            }

            func run() async throws {
                let loaded = try router.loadRouter()
                guard let base = loaded.speeds as? ProfiledEdgeSpeeds else {
                    printError("error: the router has no speed profile to start from")
                    throw ExitCode(2)
                }
                let stored: StoredLearnedSpeeds?
                do {
                    stored = try await openStore().load()
                } catch {
                    printError("error: \(error)")
                    throw ExitCode(2)
                }
                let fingerprint = LearnedSpeedTable.fingerprint(of: loaded.graph)
                guard let stored else {
                    printError("nothing learned yet: the service saves what it learned every 10 minutes and when it stops")
                    throw ExitCode(1)
                }
                guard stored.graphFingerprint == fingerprint else {
                    printError("the stored speeds were learned on another graph (\(stored.graphFingerprint)); \(router.graph) is \(fingerprint)")
                    throw ExitCode(1)
                }
                let table: LearnedSpeedTable
                do {
                    table = try LearnedSpeedTable(serialized: stored.cells, edgeCount: loaded.graph.edgeCount)
                } catch {
                    printError("error: the stored speeds cannot be read: \(error)")
                    throw ExitCode(2)
                }
                let speeds = LearnedEdgeSpeeds(base: base, table: table, live: nil,
                                               groups: EdgeGroups(graph: loaded.graph, zones: base.zones))
                let days = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
                let profile = speeds.speedProfile(tripOverheadSeconds: base.profile.tripOverheadSeconds) { day in
                    printError("averaging \(days[day])")
                }
                do {
                    try profile.text.write(toFile: output, atomically: true, encoding: .utf8)
                } catch {
                    printError("error: \(output): \(error.localizedDescription)")
                    throw ExitCode(2)
                }
                print("wrote \(output): \(table.cellCount) learned edge-quarter-hours, saved \(ISO8601DateFormatter().string(from: stored.savedAt))")
            }

            /// The store `serve` saved into: PostgreSQL when a database is named, else the data directory's SQLite file.
            private func openStore() throws -> any LearnedSpeedStore {
                if database.database != nil || DatabaseEnvironment.url != nil {
                    let pool = PostgresPool(url: try database.url(), maximumConnections: 1)
                    try PostgresSchema.migrate(pool)
                    return PostgresLearnedSpeedStore(pool: pool)
                }
                guard let dataDir, FileManager.default.fileExists(atPath: dataDir) else {
                    throw ValidationError("no data directory \(dataDir ?? "")")
                }
                return try SQLiteLearnedSpeedStore(directory: dataDir)
            }
        }
    }
}
