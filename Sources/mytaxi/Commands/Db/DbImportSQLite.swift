import ArgumentParser
import PostgresStorage
import SQLiteStorage
import Storage

extension Mytaxi.Db {
    /// `mytaxi db import-sqlite`: an embedded store moved into PostgreSQL,
    /// so that a city can start on one machine and grow onto a server.
    struct ImportSQLite: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import-sqlite",
            abstract: "Move an embedded store (the SQLite files of serve --data-dir) into an empty PostgreSQL database.",
            discussion: """
                Copies the fix archive (journal and store), the dispatch log with its snapshot, ride history and \
                notifications, the accounts with their tokens and outbox, every zone set version (the active one \
                stays active) and the speeds learned from the fleet into the database, migrating its schema first. Stop the service on DIR before: what it \
                writes during the import is not copied. The database must be empty (a new one, from createdb): an \
                import into a database in use would mix two histories, so it is refused. Everything goes in one \
                transaction, so a failed import leaves the database empty and can simply be run again. Progress goes to \
                standard error, the summary of counts to standard output. Exit status: 0 imported, 1 the database is not \
                empty or PostgreSQL refused a record, 2 DIR holds no store or cannot be read, or the server cannot be \
                reached or refused the login.
                """)

        @Option(help: ArgumentHelp("The data directory of the embedded store (serve --data-dir).", valueName: "DIR"))
        var dataDir: String

        @OptionGroup var database: DatabaseURLOption

        func run() throws {
            let url = try database.url()
            let reader: SQLiteStoreReader
            do {
                reader = try SQLiteStoreReader(directory: dataDir)
            } catch {
                printError("mytaxi db import-sqlite: \(error)")
                throw ExitCode(2)
            }
            let pool = PostgresPool(url: url, maximumConnections: 1)
            do {
                let summary = try SQLiteImport.run(from: reader, into: pool) { line in printError("import-sqlite: \(line)") }
                print("\(dataDir) → \(url): imported \(summary)")
            } catch {
                printError("mytaxi db import-sqlite: \(error)")
                switch error {
                case .targetNotEmpty, .refused: throw ExitCode(1)
                case .unreadable, .database: throw ExitCode(2)
                }
            }
        }
    }
}
