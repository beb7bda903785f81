import ArgumentParser

extension Mytaxi {
    /// `mytaxi db ...`: the stores as a whole, for operators: PostgreSQL's
    /// schema for `mytaxi serve --database`, an embedded store moved into
    /// it, and the embedded store's backup and restore.
    struct Db: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "db",
            abstract: "The stores: PostgreSQL's schema migrations, an embedded store imported, backed up or restored.",
            discussion: """
                `mytaxi serve --database URL` keeps every store (fixes, dispatch log, accounts, zone sets) in \
                PostgreSQL with PostGIS instead of SQLite files in its data directory, and migrates the schema \
                at start; migrate and import-sqlite do that work alone. backup and restore copy the embedded store \
                of a data directory while the service runs, and put it back.
                """,
            subcommands: [Migrate.self, ImportSQLite.self, Backup.self, Restore.self])
    }
}
