import Foundation
import Storage

/// The API's answers to requests with an `Idempotency-Key` on PostgreSQL,
/// in `idempotent_answer`, shared by every node: a client that retries on
/// another node after one died gets the answer the first gave.
public final class PostgresIdempotentAnswerStore: IdempotentAnswerStore {
    private let pool: PostgresPool

    /// The store in `pool`'s database, whose schema must be migrated (``PostgresSchema/migrate(_:)``).
    public init(pool: PostgresPool) {
        self.pool = pool
    }

    public func answer(for scope: String) async throws(StorageError) -> IdempotentAnswer? {
        try await pool.run({ .readFailed(reason: $0) }) { connection in try Self.answer(for: scope, on: connection) }
    }

    public func keep(_ answer: IdempotentAnswer) async throws(StorageError) -> IdempotentAnswer {
        let parameters: [PostgresValue] = [
            .text(answer.scope), .text(answer.fingerprint), .integer(Int64(answer.status)), answer.contentType.map(PostgresValue.text) ?? .null,
            answer.location.map(PostgresValue.text) ?? .null, .bytes(answer.body), .integer(answer.answeredAt.storedMilliseconds),
        ]
        return try await pool.run(transaction: true, { .writeFailed(reason: $0) }) { connection in
            _ = try connection.query(
                """
                INSERT INTO idempotent_answer (scope, fingerprint, status, content_type, location, body, answered_ms)
                VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (scope) DO NOTHING
                """, parameters)
            return try Self.answer(for: answer.scope, on: connection) ?? answer
        }
    }

    public func forget(answeredBefore date: Date) async throws(StorageError) -> Int {
        let forgotten = try await pool.run({ .writeFailed(reason: $0) }) { connection in
            try connection.query(
                "WITH gone AS (DELETE FROM idempotent_answer WHERE answered_ms < $1 RETURNING 1) SELECT count(*) AS n FROM gone",
                [.integer(date.storedMilliseconds)]
            ).integer(0, "n")
        }
        return Int(forgotten)
    }

    private static func answer(for scope: String, on connection: PostgresConnection) throws -> IdempotentAnswer? {
        let rows = try connection.query(
            "SELECT fingerprint, status, content_type, location, body, answered_ms FROM idempotent_answer WHERE scope = $1", [.text(scope)])
        guard rows.count > 0 else { return nil }
        return IdempotentAnswer(
            scope: scope, fingerprint: try rows.string(0, "fingerprint"), status: Int(try rows.integer(0, "status")),
            contentType: try rows.text(0, "content_type"), location: try rows.text(0, "location"), body: try rows.bytes(0, "body"),
            answeredAt: Date(storedMilliseconds: try rows.integer(0, "answered_ms")))
    }
}
