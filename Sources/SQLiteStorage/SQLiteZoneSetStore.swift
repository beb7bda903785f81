import Foundation
import Storage
import GRDB

/// The default zone set store: `zones.sqlite` in the data directory, WAL
/// with `synchronous=FULL`, so an upload or an activation is durable when
/// the call returns. Versions are rows never updated; the active version is
/// a one-row table.
public final class SQLiteZoneSetStore: ZoneSetStore {
    private let database: DatabasePool

    /// Opens (creating and migrating when needed) the store in `directory`, which must exist.
    /// - Throws: ``StorageError/unavailable(location:reason:)``.
    public init(directory: String) throws(StorageError) {
        do {
            database = try DurableDatabasePool.open(directory: directory, name: "zones.sqlite")
            try Self.migrator.migrate(database)
        } catch {
            throw .unavailable(location: "the data directory \(directory)", reason: "\(error)")
        }
    }

    /// The schema, one migration per change.
    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("zone set versions and the active one") { db in
            try db.execute(sql: """
                CREATE TABLE zone_set (
                    version INTEGER PRIMARY KEY AUTOINCREMENT,
                    uploaded_by TEXT NOT NULL,
                    uploaded_ms INTEGER NOT NULL,
                    zone_count INTEGER NOT NULL,
                    comment TEXT,
                    geojson BLOB NOT NULL);
                CREATE TABLE active_zone_set (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    version INTEGER NOT NULL REFERENCES zone_set (version),
                    activated_by TEXT NOT NULL,
                    activated_ms INTEGER NOT NULL);
                """)
        }
        return migrator
    }

    static let columns = """
        SELECT z.version, z.uploaded_by, z.uploaded_ms, z.zone_count, length(z.geojson) AS bytes, z.comment,
               a.activated_by, a.activated_ms
        FROM zone_set z LEFT JOIN active_zone_set a ON a.version = z.version
        """

    public func add(geoJSON: Data, zoneCount: Int, uploadedBy: String, at: Date, comment: String?) async throws(StorageError) -> ZoneSetVersion {
        do {
            return try await database.write { db in
                try db.execute(
                    sql: "INSERT INTO zone_set (uploaded_by, uploaded_ms, zone_count, comment, geojson) VALUES (?, ?, ?, ?, ?)",
                    arguments: [uploadedBy, at.storedMilliseconds, zoneCount, comment, geoJSON])
                let row = try Row.fetchOne(db, sql: Self.columns + " WHERE z.version = ?", arguments: [db.lastInsertedRowID])
                return try Self.version(of: row)
            }
        } catch {
            throw .writeFailed(reason: "\(error)")
        }
    }

    public func versions() async throws(StorageError) -> [ZoneSetVersion] {
        do {
            return try await database.read { db in
                try Row.fetchAll(db, sql: Self.columns + " ORDER BY z.version DESC").map { try Self.version(of: $0) }
            }
        } catch {
            throw .readFailed(reason: "\(error)")
        }
    }

    public func geoJSON(of version: Int) async throws(StorageError) -> Data? {
        do {
            return try await database.read { db in
                try Data.fetchOne(db, sql: "SELECT geojson FROM zone_set WHERE version = ?", arguments: [version])
            }
        } catch {
            throw .readFailed(reason: "\(error)")
        }
    }

    public func activate(_ version: Int, by username: String, at: Date) async throws(StorageError) -> ZoneSetVersion? {
        do {
            return try await database.write { db in
                guard try Bool.fetchOne(db, sql: "SELECT 1 FROM zone_set WHERE version = ?", arguments: [version]) != nil else { return nil }
                try db.execute(
                    sql: "INSERT OR REPLACE INTO active_zone_set (id, version, activated_by, activated_ms) VALUES (1, ?, ?, ?)",
                    arguments: [version, username, at.storedMilliseconds])
                return try Self.version(of: try Row.fetchOne(db, sql: Self.columns + " WHERE z.version = ?", arguments: [version]))
            }
        } catch {
            throw .writeFailed(reason: "\(error)")
        }
    }

    public func activeVersion() async throws(StorageError) -> ZoneSetVersion? {
        do {
            return try await database.read { db in
                try Row.fetchOne(db, sql: Self.columns + " WHERE a.version IS NOT NULL").map { try Self.version(of: $0) }
            }
        } catch {
            throw .readFailed(reason: "\(error)")
        }
    }

    private struct MissingRow: Error {}

    static func version(of row: Row?) throws -> ZoneSetVersion {
        guard let row else { throw MissingRow() }
        let activatedBy: String? = row["activated_by"]
        let activatedMs: Int64? = row["activated_ms"]
        return ZoneSetVersion(
            version: row["version"], uploadedBy: row["uploaded_by"], uploadedAt: Date(storedMilliseconds: row["uploaded_ms"]),
            zoneCount: row["zone_count"], bytes: row["bytes"], comment: row["comment"],
            activation: activatedBy.flatMap { by in activatedMs.map { ZoneSetActivation(by: by, at: Date(storedMilliseconds: $0)) } })
    }
}
