import Foundation
import GRDB
import Storage

/// The API's answers to requests with an `Idempotency-Key`, in
/// `idempotent-answers.sqlite` of the data directory: each durable when
/// the call returns, so that a retry after a restart is answered the same.
public final class SQLiteIdempotentAnswerStore: IdempotentAnswerStore {
    private let database: DatabasePool

    /// Opens (creating when needed) the store in `directory`, which must exist.
    /// - Throws: ``StorageError/unavailable(location:reason:)``.
    public init(directory: String) throws(StorageError) {
        do {
            database = try DurableDatabasePool.open(directory: directory, name: "idempotent-answers.sqlite")
            var migrator = DatabaseMigrator()
            migrator.registerMigration("answers to requests with an Idempotency-Key") { db in
                try db.execute(sql: """
                    CREATE TABLE idempotent_answer (
                        scope TEXT PRIMARY KEY,
                        fingerprint TEXT NOT NULL,
                        status INTEGER NOT NULL,
                        content_type TEXT,
                        location TEXT,
                        body BLOB NOT NULL,
                        answered_ms INTEGER NOT NULL);
                    CREATE INDEX idempotent_answer_age ON idempotent_answer (answered_ms);
                    """)
            }
            try migrator.migrate(database)
        } catch {
            throw .unavailable(location: "the data directory \(directory)", reason: "\(error)")
        }
    }

    public func answer(for scope: String) async throws(StorageError) -> IdempotentAnswer? {
        do {
            return try await database.read { db in try Self.answer(for: scope, in: db) }
        } catch {
            throw .readFailed(reason: "\(error)")
        }
    }

    public func keep(_ answer: IdempotentAnswer) async throws(StorageError) -> IdempotentAnswer {
        do {
            return try await database.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO idempotent_answer (scope, fingerprint, status, content_type, location, body, answered_ms)
                        VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (scope) DO NOTHING
                        """,
                    arguments: [
                        answer.scope, answer.fingerprint, answer.status, answer.contentType, answer.location, answer.body,
                        answer.answeredAt.storedMilliseconds,
                    ])
                return try Self.answer(for: answer.scope, in: db) ?? answer
            }
        } catch {
            throw .writeFailed(reason: "\(error)")
        }
    }

    public func forget(answeredBefore date: Date) async throws(StorageError) -> Int {
        do {
            return try await database.write { db in
                try db.execute(sql: "DELETE FROM idempotent_answer WHERE answered_ms < ?", arguments: [date.storedMilliseconds])
                return db.changesCount
            }
        } catch {
            throw .writeFailed(reason: "\(error)")
        }
    }

    private static func answer(for scope: String, in db: Database) throws -> IdempotentAnswer? {
        try Row.fetchOne(
            db, sql: "SELECT fingerprint, status, content_type, location, body, answered_ms FROM idempotent_answer WHERE scope = ?",
            arguments: [scope]
        ).map { row in
            IdempotentAnswer(
                scope: scope, fingerprint: row["fingerprint"], status: row["status"], contentType: row["content_type"],
                location: row["location"], body: row["body"], answeredAt: Date(storedMilliseconds: row["answered_ms"]))
        }
    }
}
