import Foundation
import Storage
import Testing
@testable import PostgresStorage

/// Fresh databases on the throwaway PostgreSQL cluster that `make test`
/// starts (Tools/with-postgres.sh), whose URL it exports as
/// `MYTAXI_TEST_DATABASE_URL`. Without it, the PostgreSQL cases are left
/// out and the tests that need nothing else are skipped with ``skipReason``.
enum PostgresTestDatabase {
    /// The cluster's URL, nil when no cluster was started.
    static let url = ProcessInfo.processInfo.environment["MYTAXI_TEST_DATABASE_URL"]

    /// Whether a cluster is there to test against.
    static var available: Bool { url != nil }

    /// Why the PostgreSQL tests did not run.
    static let skipReason: Comment =
        "MYTAXI_TEST_DATABASE_URL is not set: `make test` starts a throwaway PostgreSQL (Tools/with-postgres.sh swift test ... does too)"

    /// `name` when a cluster is there: the implementations a contract suite runs.
    static func implementation(_ name: String) -> [String] {
        available ? [name] : []
    }

    /// A new, empty, migrated database, a pool on it, and what drops it afterwards.
    static func make() throws -> (pool: PostgresPool, url: PostgresURL, cleanUp: () -> Void) {
        guard let url else { throw PostgresError(message: "MYTAXI_TEST_DATABASE_URL is not set") }
        let administration = PostgresPool(url: try PostgresURL(url), maximumConnections: 1)
        let name = "mytaxi_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try administration.withConnection { try $0.execute("CREATE DATABASE \(name)") }
        var components = URLComponents(string: url)!
        components.path = "/" + name
        let databaseURL = try PostgresURL(components.string!)
        let pool = PostgresPool(url: databaseURL)
        try PostgresSchema.migrate(pool)
        return (pool, databaseURL, {
            pool.close()
            try? administration.withConnection { try $0.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)") }
        })
    }
}
