import Foundation
import Storage

/// The learned weekly speeds on PostgreSQL: one row of `learned_speeds`,
/// replaced whole at each save.
public final class PostgresLearnedSpeedStore: LearnedSpeedStore {
    private let pool: PostgresPool

    /// The store in `pool`'s database, whose schema must be migrated (``PostgresSchema/migrate(_:)``).
    public init(pool: PostgresPool) {
        self.pool = pool
    }

    public func save(_ speeds: StoredLearnedSpeeds) async throws(StorageError) {
        let parameters: [PostgresValue] = [.text(speeds.graphFingerprint), .integer(speeds.savedAt.storedMilliseconds), .bytes(speeds.cells)]
        try await pool.run(transaction: true, { .writeFailed(reason: $0) }) { connection in
            try connection.query(
                """
                INSERT INTO learned_speeds (id, graph, saved_ms, cells) VALUES (1, $1, $2, $3)
                ON CONFLICT (id) DO UPDATE SET graph = excluded.graph, saved_ms = excluded.saved_ms, cells = excluded.cells
                """, parameters)
        }
    }

    public func load() async throws(StorageError) -> StoredLearnedSpeeds? {
        try await pool.run({ .readFailed(reason: $0) }) { connection in
            let rows = try connection.query("SELECT graph, saved_ms, cells FROM learned_speeds WHERE id = 1")
            guard rows.count > 0 else { return nil }
            return StoredLearnedSpeeds(graphFingerprint: try rows.string(0, "graph"),
                                       savedAt: Date(storedMilliseconds: try rows.integer(0, "saved_ms")), cells: try rows.bytes(0, "cells"))
        }
    }
}
