import ArgumentParser
import PostgresStorage

extension Mytaxi.Db {
    /// `mytaxi db migrate`: the schema migrations alone, e.g. before the
    /// first start or by an operator whose service runs without DDL rights.
    struct Migrate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Apply the schema migrations the database lacks (versioned, forward only), then exit.",
            discussion: """
                Each migration runs in its own transaction and is recorded in schema_migrations; running \
                it again applies nothing. PostGIS must be installed on the server (Debian \
                postgresql-15-postgis-3); the first migration creates the extension. Exit status: 0 \
                migrated (or nothing to do), 2 the server cannot be reached, refused the login, or a \
                migration failed (the message says which and what to do).
                """)

        @OptionGroup var database: DatabaseURLOption

        func run() async throws {
            let url = try database.url()
            let pool = PostgresPool(url: url, maximumConnections: 1)
            do {
                let applied = try PostgresSchema.migrate(pool)
                print(applied.isEmpty
                    ? "\(url): schema at version \(PostgresSchema.latestVersion), nothing to migrate"
                    : "\(url): applied migration(s) \(applied.map(String.init).joined(separator: ", ")); schema at version \(PostgresSchema.latestVersion)")
            } catch {
                printError("mytaxi db migrate: \(error)")
                throw ExitCode(2)
            }
        }
    }
}
