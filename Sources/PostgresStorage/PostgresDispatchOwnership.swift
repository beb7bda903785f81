import Storage

/// Dispatch leases on PostgreSQL: one row of `dispatch_owner`, renewed by
/// its holder in one statement and taken over in one transaction that
/// replaces it, timed by the server's clock (`clock_timestamp()`), so that
/// the nodes' own clocks never matter. ``PostgresDispatchLog``'s fenced
/// writes check the same row.
public final class PostgresDispatchOwnership: DispatchOwnership {
    private let pool: PostgresPool

    /// The leases in `pool`'s database, whose schema must be migrated (``PostgresSchema/migrate(_:)``).
    public init(pool: PostgresPool) {
        self.pool = pool
    }

    public func claim(node: String, address: String, for duration: Duration) async throws(StorageError) -> DispatchLease? {
        let milliseconds = duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000
        return try await pool.run(transaction: true, { .writeFailed(reason: $0) }) { connection in
            // The holder of a live lease renews it: only its end moves, an
            // update of no key, which the log's writes in flight (holding
            // the row `FOR KEY SHARE`) do not hold up.
            let renewed = try connection.query(
                """
                UPDATE dispatch_owner SET address = $2, lease_until = clock_timestamp() + $3::int8 * interval '1 millisecond'
                WHERE id = 1 AND node = $1 AND lease_until > clock_timestamp()
                RETURNING node, address, epoch
                """, [.text(node), .text(address), .integer(milliseconds)])
            if renewed.count == 1 { return try Self.lease(renewed) }
            // Any other claim takes a lease that has run out (this node's
            // own too) with a new epoch, or the first one: it replaces the
            // row, and a delete waits for every write in flight under the
            // old lease to commit, so that the new owner reads them. A live
            // lease of another node is left alone (nothing is inserted).
            let ended = try connection.query(
                "DELETE FROM dispatch_owner WHERE id = 1 AND lease_until <= clock_timestamp() RETURNING epoch")
            let epoch = ended.count == 1 ? try ended.integer(0, "epoch") + 1 : 1
            let taken = try connection.query(
                """
                INSERT INTO dispatch_owner (id, node, address, epoch, lease_until)
                VALUES (1, $1, $2, $3, clock_timestamp() + $4::int8 * interval '1 millisecond')
                ON CONFLICT (id) DO NOTHING
                RETURNING node, address, epoch
                """, [.text(node), .text(address), .integer(epoch), .integer(milliseconds)])
            return taken.count == 1 ? try Self.lease(taken) : nil
        }
    }

    public func owner() async throws(StorageError) -> DispatchLease? {
        try await pool.run({ .readFailed(reason: $0) }) { connection in
            let rows = try connection.query(
                "SELECT node, address, epoch FROM dispatch_owner WHERE id = 1 AND lease_until > clock_timestamp()")
            return rows.count == 1 ? try Self.lease(rows) : nil
        }
    }

    public func release(_ lease: DispatchLease) async throws(StorageError) {
        try await pool.run(transaction: true, { .writeFailed(reason: $0) }) { connection in
            try connection.query(
                "UPDATE dispatch_owner SET lease_until = clock_timestamp() WHERE id = 1 AND node = $1 AND epoch = $2",
                [.text(lease.node), .integer(lease.epoch)])
        }
    }

    private static func lease(_ rows: PostgresRows) throws -> DispatchLease {
        DispatchLease(node: try rows.string(0, "node"), address: try rows.string(0, "address"), epoch: try rows.integer(0, "epoch"))
    }
}
