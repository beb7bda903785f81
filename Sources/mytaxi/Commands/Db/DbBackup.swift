import ArgumentParser
import Foundation
import ServeConfig
import SQLiteStorage

extension Mytaxi.Db {
    /// `mytaxi db backup`: a consistent copy of the embedded store taken
    /// while the service runs, so that a city on one machine can be backed
    /// up without stopping its terminals and dispatch.
    struct Backup: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "backup",
            abstract: "Copy the embedded store (the SQLite files of serve --data-dir) into one archive while the service runs.",
            discussion: """
                Copies every SQLite file of DIR with SQLite's online backup, each as of one moment and without \
                holding up the service's writes, into the ZIP archive FILE with a manifest (manifest.json: when it \
                was taken, the mytaxi version, each file's size and counts). The fix journal is copied before the \
                fix store and the dispatch log before the accounts and zone sets, so every fix and command \
                acknowledged before the backup started is in it. FILE is written as FILE.partial and renamed once \
                complete, so a failed backup never leaves a FILE that looks whole. Put it back with \
                `mytaxi db restore`. A service on PostgreSQL (--database) is backed up with PostgreSQL's own tools: \
                pg_dump or pg_basebackup (see docs/operations.md). Progress goes to standard error, one line per \
                file, the summary to standard output. Exit status: 0 backed up, 1 the copy failed (named), 2 DIR \
                holds no store, FILE exists without --force or cannot be written, or --database was given.
                """)

        @Option(help: ArgumentHelp("The data directory of the embedded store (serve --data-dir).", valueName: "DIR"))
        var dataDir: String?

        @Option(name: .shortAndLong, help: ArgumentHelp("The archive to write (a ZIP file).", valueName: "FILE"))
        var output: String

        @Flag(help: "Replace FILE when it exists (once the new backup is complete).")
        var force = false

        @Option(help: ArgumentHelp(
            "A service on PostgreSQL: refused, with how to back it up instead.", valueName: "postgres://USER:PASSWORD@HOST:PORT/DATABASE"))
        var database: String?

        func validate() throws {
            if database == nil, dataDir == nil, DatabaseEnvironment.url == nil {
                throw ValidationError("missing --data-dir DIR, the data directory of the store to back up")
            }
        }

        func run() throws {
            guard database == nil, let dataDir else {
                printError(Self.postgreSQLAdvice)
                throw ExitCode(2)
            }
            do {
                let manifest = try EmbeddedStoreBackup.backUp(
                    dataDirectory: dataDir, to: output, replacing: force, mytaxiVersion: Mytaxi.configuration.version
                ) { file in
                    printError("backup: \(file.name): \(byteSize(file.bytes)), \(file.counts)")
                }
                let archived = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int64) ?? 0
                print("\(dataDir) → \(output): \(manifest.summary(archived: archived))")
            } catch {
                printError("mytaxi db backup: \(error)")
                throw ExitCode(error.isMisuse ? 2 : 1)
            }
        }

        /// What `--database` (or `$MYTAXI_DATABASE_URL` without `--data-dir`) is told.
        static let postgreSQLAdvice = """
            mytaxi db backup: this command backs up the embedded store of a data directory (--data-dir DIR); \
            a service on PostgreSQL is backed up with PostgreSQL's own tools: pg_dump -Fc for a logical copy, \
            pg_basebackup with WAL archiving for a physical one and point-in-time recovery, and under Patroni \
            both taken from a replica, a cluster restored with Patroni's bootstrap from a base backup. Nothing \
            was written. See "Backups" in docs/operations.md.
            """
    }
}
