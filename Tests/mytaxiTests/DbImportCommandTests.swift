import Foundation
import Testing

/// `mytaxi db import-sqlite` keeps its contract: an embedded store written
/// by the real commands moves into PostgreSQL (exit 0, the counts), a
/// second import into the same database is refused (exit 1, nothing
/// changed), and a directory without a store is named (exit 2).
@Suite(.timeLimit(.minutes(20))) struct DbImportCommandTests {
    static let password = "analytical-1"

    @Test func helpListsTheImport() async throws {
        let help = try await CommandRunner.run(["db", "--help"])
        #expect(help.status == 0)
        #expect(help.standardOutput.contains("import-sqlite"), "\(help.standardOutput)")
    }

    @Test func aDirectoryWithoutAStoreExitsTwoNamingIt() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mytaxi-import-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await CommandRunner.run(
            ["db", "import-sqlite", "--data-dir", folder.path, "--database", "postgres://mytaxi@127.0.0.1:1/nowhere"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("no embedded store there"), "\(result.standardError)")
        #expect(result.standardError.contains(folder.path))
    }

    @Test func anUnreachableServerExitsTwoSayingWhatToCheck() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mytaxi-import-down-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data").path
        let created = try await CommandRunner.run(
            ["accounts", "create", "--data-dir", data, "--role", "administrator", "--username", "root", "--password-stdin"],
            input: Self.password)
        #expect(created.status == 0, "\(created.standardError)")
        let result = try await CommandRunner.run(
            ["db", "import-sqlite", "--data-dir", data, "--database", "postgres://mytaxi:secret-word@127.0.0.1:1/nowhere"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("cannot reach PostgreSQL"), "\(result.standardError)")
        #expect(result.standardError.contains("nothing was imported"))
        #expect(!result.standardError.contains("secret-word"), "the password is never shown")
    }

    @Test(.enabled(if: PostgresCluster.url != nil, PostgresCluster.skipReason))
    func accountsMadeOnSQLiteLogInFromPostgreSQLAfterTheImport() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mytaxi-import-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data").path
        for (role, name) in [("administrator", "root"), ("dispatcher", "desk")] {
            let created = try await CommandRunner.run(
                ["accounts", "create", "--data-dir", data, "--role", role, "--username", name, "--password-stdin"],
                input: Self.password)
            #expect(created.status == 0, "\(created.standardError)")
        }
        let database = try PostgresCluster.createDatabase()

        let imported = try await CommandRunner.run(["db", "import-sqlite", "--data-dir", data, "--database", database])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardOutput.contains("imported 0 fixes"), "\(imported.standardOutput)")
        #expect(imported.standardOutput.contains("2 accounts"), "\(imported.standardOutput)")
        #expect(imported.standardError.contains("import-sqlite: committing"))
        #expect(!imported.standardOutput.contains(":\(URLComponents(string: database)?.password ?? "no password")@"), "no password shown")
        let listed = try await CommandRunner.run(["accounts", "list", "--database", database])
        #expect(listed.lines == ["1: root (administrator), active", "2: desk (dispatcher), active"], "\(listed.standardError)")

        let again = try await CommandRunner.run(["db", "import-sqlite", "--data-dir", data, "--database", database])
        #expect(again.status == 1)
        #expect(again.standardError.contains("is not empty (it holds 2 accounts"), "\(again.standardError)")
        #expect(try await CommandRunner.run(["accounts", "list", "--database", database]).lines.count == 2)
    }
}
