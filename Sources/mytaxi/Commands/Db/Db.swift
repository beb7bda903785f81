import ArgumentParser

extension Mytaxi {
    /// `mytaxi db ...`: the PostgreSQL server store, for operators who
    /// point `mytaxi serve --database` at it.
    struct Db: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "db",
            abstract: "The PostgreSQL server store: run its schema migrations, import an embedded store.",
            discussion: """
                `mytaxi serve --database URL` keeps every store (fixes, dispatch log, accounts, zone sets) in \
                PostgreSQL with PostGIS instead of SQLite files in its data directory, and migrates the schema \
                at start; these commands do the same work alone.
                """,
            subcommands: [Migrate.self, ImportSQLite.self])
    }
}
