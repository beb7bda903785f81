import Storage
import GRDB

/// How the small SQLite stores of the data directory open their database:
/// WAL with `synchronous=FULL`, so a write is durable when it returns, and
/// a writer that waits up to 10 s for another process's write (the
/// service and a command such as `mytaxi accounts create` may share a file).
enum DurableDatabasePool {
    /// The pool of the database file `name` in `directory`, created when missing.
    static func open(directory: String, name: String) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        return try DatabasePool(path: directory + "/" + name, configuration: configuration)
    }
}
