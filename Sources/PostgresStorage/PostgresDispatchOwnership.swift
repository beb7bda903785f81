import Storage

/// Dispatch leases on PostgreSQL: one row of `dispatch_owner`, claimed and
/// renewed in one statement each, timed by the server's clock
/// (`clock_timestamp()`), so that the nodes' own clocks never matter.
/// ``PostgresDispatchLog``'s fenced writes check the same row.
public final class PostgresDispatchOwnership: DispatchOwnership {
    private let pool: PostgresPool

    /// The leases in `pool`'s database, whose schema must be migrated (``PostgresSchema/migrate(_:)``).
    public init(pool: PostgresPool) {
        self.pool = pool
    }

    public func claim(node: String, address: String, for duration: Duration) async throws(StorageError) -> DispatchLease? {
        let milliseconds = duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000
        return try await pool.run(transaction: true, { .writeFailed(reason: $0) }) { connection in
            // A live lease of another node is left alone (no row comes back);
            // a node renewing its live lease keeps its epoch; any other claim
            // starts a new one.
            let rows = try connection.query(
                """
                INSERT INTO dispatch_owner AS held (id, node, address, epoch, lease_until)
                VALUES (1, $1, $2, 1, clock_timestamp() + $3::int8 * interval '1 millisecond')
                ON CONFLICT (id) DO UPDATE SET
                    epoch = CASE WHEN held.node = excluded.node AND held.lease_until > clock_timestamp()
                                 THEN held.epoch ELSE held.epoch + 1 END,
                    node = excluded.node, address = excluded.address, lease_until = excluded.lease_until
                WHERE held.node = excluded.node OR held.lease_until <= clock_timestamp()
                RETURNING node, address, epoch
                """, [.text(node), .text(address), .integer(milliseconds)])
            return rows.count == 1 ? try Self.lease(rows) : nil
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
