import Foundation
import Storage
import GRDB

/// The learned weekly speeds in `learned-speeds.sqlite` of the data
/// directory: one row, replaced whole at each save, durable when the call returns.
public final class SQLiteLearnedSpeedStore: LearnedSpeedStore {
    private let database: DatabasePool

    /// Opens (creating when needed) the store in `directory`, which must exist.
    /// - Throws: ``StorageError/unavailable(location:reason:)``.
    public init(directory: String) throws(StorageError) {
        do {
            database = try DurableDatabasePool.open(directory: directory, name: "learned-speeds.sqlite")
            var migrator = DatabaseMigrator()
            migrator.registerMigration("the latest snapshot of the learned weekly speeds") { db in
                try db.execute(sql: """
                    CREATE TABLE learned_speeds (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        graph TEXT NOT NULL,
                        saved_ms INTEGER NOT NULL,
                        cells BLOB NOT NULL);
                    """)
            }
            try migrator.migrate(database)
        } catch {
            throw .unavailable(location: "the data directory \(directory)", reason: "\(error)")
        }
    }

    public func save(_ speeds: StoredLearnedSpeeds) async throws(StorageError) {
        do {
            try await database.write { db in
                try db.execute(
                    sql: "INSERT OR REPLACE INTO learned_speeds (id, graph, saved_ms, cells) VALUES (1, ?, ?, ?)",
                    arguments: [speeds.graphFingerprint, speeds.savedAt.storedMilliseconds, speeds.cells])
            }
        } catch {
            throw .writeFailed(reason: "\(error)")
        }
    }

    public func load() async throws(StorageError) -> StoredLearnedSpeeds? {
        do {
            return try await database.read { db in
                try Row.fetchOne(db, sql: "SELECT graph, saved_ms, cells FROM learned_speeds WHERE id = 1").map { row in
                    StoredLearnedSpeeds(graphFingerprint: row["graph"], savedAt: Date(storedMilliseconds: row["saved_ms"]), cells: row["cells"])
                }
            }
        } catch {
            throw .readFailed(reason: "\(error)")
        }
    }
}
