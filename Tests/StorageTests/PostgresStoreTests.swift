import FixRecords
import Foundation
import Storage
import Testing
@testable import PostgresStorage

/// What the PostgreSQL stores add to the protocols' contracts: errors that
/// say what to do and never show the password, backoff while the server
/// is away, forward-only migrations, day partitions and PostGIS points.
@Suite(.timeLimit(.minutes(20))) struct PostgresStoreTests {
    @Test func aURLShowsNoPassword() throws {
        let url = try PostgresURL("postgres://mytaxi:s3cret-pw@db.example.org:6543/fleet?sslmode=require")
        #expect(url.description == "postgres://mytaxi@db.example.org:6543/fleet")
        #expect(url.server == "db.example.org:6543/fleet")
        #expect(throws: PostgresURLError.self) { try PostgresURL("mysql://mytaxi@localhost/fleet") }
        #expect(throws: PostgresURLError.self) { try PostgresURL("postgres://mytaxi@localhost") }
    }

    /// Nothing listens on port 1: the error says so and what to do, and
    /// the next attempt within the backoff fails at once.
    @Test func anUnreachableServerIsNamedAndRetriedWithBackoff() throws {
        let pool = PostgresPool(url: try PostgresURL("postgres://mytaxi:s3cret-pw@127.0.0.1:1/mytaxi"))
        let first = #expect(throws: StorageError.self) { try pool.withConnection { _ in } }
        let message = "\(first.map { "\($0)" } ?? "")"
        #expect(message.contains("127.0.0.1:1/mytaxi"))
        #expect(message.contains("check that the server is running"))
        #expect(!message.contains("s3cret-pw"))
        #expect(pool.unavailableReason == message)
        let clock = ContinuousClock()
        let elapsed = clock.measure { _ = try? pool.withConnection { _ in } }
        #expect(elapsed < .milliseconds(50), "within the backoff, no new attempt is made")
    }

    @Test(.enabled(if: PostgresTestDatabase.available, PostgresTestDatabase.skipReason))
    func aWrongPasswordIsALoginRefusedWithoutThePassword() throws {
        let url = try #require(PostgresTestDatabase.url)
        var components = try #require(URLComponents(string: url))
        components.password = "not-the-password"
        let pool = PostgresPool(url: try PostgresURL(try #require(components.string)))
        let error = #expect(throws: StorageError.self) { try pool.withConnection { _ in } }
        let message = "\(error.map { "\($0)" } ?? "")"
        #expect(message.contains("refused the login of user mytaxi"))
        #expect(message.contains("check the user and password"))
        #expect(!message.contains("not-the-password"))
    }

    @Test(.enabled(if: PostgresTestDatabase.available, PostgresTestDatabase.skipReason))
    func migrationsRunOnceInOrder() throws {
        let database = try PostgresTestDatabase.make()
        defer { database.cleanUp() }
        #expect(try PostgresSchema.migrate(database.pool) == [], "the test database is migrated already")
        let applied = try database.pool.withConnection { connection in
            try connection.query("SELECT version FROM schema_migrations ORDER BY version")
        }
        #expect(try (0..<applied.count).map { try applied.integer($0, "version") } == Array(1...Int64(PostgresSchema.latestVersion)))
    }

    /// Each fix lands in its UTC day's partition as a PostGIS point.
    @Test(.enabled(if: PostgresTestDatabase.available, PostgresTestDatabase.skipReason))
    func fixesArePartitionedByDayWithAPoint() throws {
        let database = try PostgresTestDatabase.make()
        defer { database.cleanUp() }
        let archive = PostgresFixArchive(pool: database.pool)
        // 1_790_000_000 is 2026-09-21 14:13:20 UTC; a day later is the 22nd.
        try archive.append([makeFix(taxi: "T1", second: 0, lon: -73.5), makeFix(taxi: "T1", second: 86_400)])
        try archive.moveJournalToStore()
        let rows = try database.pool.withConnection { connection in
            try connection.query("SELECT tableoid::regclass::text AS part, ST_AsText(position) AS point FROM fixes ORDER BY time")
        }
        #expect(try rows.string(0, "part") == "fixes_20260921")
        #expect(try rows.string(1, "part") == "fixes_20260922")
        #expect(try rows.string(0, "point") == "POINT(-73.5 40.75)")
    }
}
