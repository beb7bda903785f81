import Foundation
import Testing

/// The `mytaxi accounts` commands keep their contract (issue 15): the first
/// administrator from the command line, the password on standard input,
/// exit 0 with the account, 1 with the rule broken, 2 on misuse.
@Suite(.timeLimit(.minutes(20))) struct AccountsCommandTests {
    static let password = "analytical-1"

    /// A data directory that does not exist yet (`create` makes it), and what removes it.
    static func dataDirectory() -> (path: String, cleanUp: () -> Void) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mytaxi-accounts-cli-\(UUID().uuidString)")
        return (folder.appendingPathComponent("data").path, { try? FileManager.default.removeItem(at: folder) })
    }

    @Test func createBootstrapsTheFirstAdministratorAndListShowsIt() async throws {
        let (data, cleanUp) = Self.dataDirectory()
        defer { cleanUp() }
        let created = try await CommandRunner.run(
            ["accounts", "create", "--data-dir", data, "--role", "administrator", "--username", "root", "--password-stdin"],
            input: Self.password + "\n")
        #expect(created.status == 0, "\(created.standardError)")
        #expect(created.lines == ["created account 1: root (administrator)"])
        let listed = try await CommandRunner.run(["accounts", "list", "--data-dir", data])
        #expect(listed.status == 0)
        #expect(listed.lines == ["1: root (administrator), active"])
    }

    /// An operator at the console disables, enables, resets a password,
    /// deletes, searches by state, and reads what was done in the audit log.
    @Test func theConsoleVerbsChangeAccountsAndTheAuditLogSaysSo() async throws {
        let (data, cleanUp) = Self.dataDirectory()
        defer { cleanUp() }
        for (role, name, email) in [("administrator", "root", "root@example.org"), ("dispatcher", "desk", "desk@example.org"), ("planner", "plan", "")] {
            let created = try await CommandRunner.run(
                ["accounts", "create", "--data-dir", data, "--role", role, "--username", name, "--password-stdin"]
                    + (email.isEmpty ? [] : ["--email", email]),
                input: Self.password)
            #expect(created.status == 0, "\(created.standardError)")
        }
        let disabled = try await CommandRunner.run(["accounts", "disable", "--data-dir", data, "desk"])
        #expect(disabled.status == 0)
        #expect(disabled.lines == ["disabled account 2: desk (dispatcher), email desk@example.org, disabled"])
        let byState = try await CommandRunner.run(["accounts", "list", "--data-dir", data, "--state", "disabled"])
        #expect(byState.lines == ["2: desk (dispatcher), email desk@example.org, disabled, disabled"])
        #expect(try await CommandRunner.run(["accounts", "enable", "--data-dir", data, "DESK"]).status == 0)
        let searched = try await CommandRunner.run(["accounts", "list", "--data-dir", data, "--search", "DESK@", "--state", "active"])
        #expect(searched.lines == ["2: desk (dispatcher), email desk@example.org, active"])

        let mailed = try await CommandRunner.run(["accounts", "reset-password", "--data-dir", data, "desk"])
        #expect(mailed.status == 0)
        #expect(mailed.lines.first?.hasPrefix("sent a password reset e-mail to desk@example.org") == true)
        let noAddress = try await CommandRunner.run(["accounts", "reset-password", "--data-dir", data, "plan"])
        #expect(noAddress.status == 1)
        #expect(noAddress.standardError.contains("--password-stdin") || noAddress.standardError.contains("reset-password"))
        let weak = try await CommandRunner.run(["accounts", "reset-password", "--data-dir", data, "plan", "--password-stdin"], input: "short")
        #expect(weak.status == 1)
        #expect(weak.standardError.contains("error: password:"))
        let set = try await CommandRunner.run(["accounts", "reset-password", "--data-dir", data, "plan", "--password-stdin"], input: "n3w-pass-word")
        #expect(set.status == 0, "\(set.standardError)")

        let deleted = try await CommandRunner.run(["accounts", "delete", "--data-dir", data, "plan"])
        #expect(deleted.status == 0)
        #expect(deleted.lines == ["deleted account 3: now deleted~3"])
        #expect(try await CommandRunner.run(["accounts", "enable", "--data-dir", data, "deleted~3"]).status == 1)
        #expect(try await CommandRunner.run(["accounts", "disable", "--data-dir", data, "ghost"]).status == 1)

        let audit = try await CommandRunner.run(["accounts", "audit", "--data-dir", data])
        #expect(audit.status == 0)
        let actions = audit.lines.map { $0.split(separator: " ").dropFirst(2).prefix(3).joined(separator: " ").replacingOccurrences(of: ":", with: "") }
        #expect(actions == [
            "console account.delete plan", "console account.set-password plan", "console account.password-reset desk",
            "console account.enable desk", "console account.disable desk", "console account.create plan",
            "console account.create desk", "console account.create root",
        ])
    }

    /// The password is kept only as a bcrypt hash: no file of the data directory holds it.
    @Test func thePasswordIsStoredNowhere() async throws {
        let (data, cleanUp) = Self.dataDirectory()
        defer { cleanUp() }
        let created = try await CommandRunner.run(
            ["accounts", "create", "--data-dir", data, "--role", "dispatcher", "--username", "desk", "--password-stdin"],
            input: Self.password)
        #expect(created.status == 0)
        #expect(!created.standardOutput.contains(Self.password))
        for file in try FileManager.default.contentsOfDirectory(atPath: data) {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: data).appendingPathComponent(file))
            #expect(bytes.range(of: Data(Self.password.utf8)) == nil, "\(file) holds the password")
        }
    }

    @Test func aWeakPasswordExitsOneNamingEveryRuleBroken() async throws {
        let (data, cleanUp) = Self.dataDirectory()
        defer { cleanUp() }
        let result = try await CommandRunner.run(
            ["accounts", "create", "--data-dir", data, "--role", "planner", "--username", "plan", "--password-stdin"],
            input: "planner\n")
        #expect(result.status == 1)
        #expect(result.standardError.contains("error: password: the password needs at least one digit"))
        #expect(result.standardError.contains("error: password: the password needs at least one character that is neither a letter nor a digit"))
        #expect(result.standardOutput.isEmpty)
    }

    @Test func aTakenUsernameExitsOneWhateverItsCase() async throws {
        let (data, cleanUp) = Self.dataDirectory()
        defer { cleanUp() }
        let arguments = ["accounts", "create", "--data-dir", data, "--role", "dispatcher", "--password-stdin", "--username"]
        #expect(try await CommandRunner.run(arguments + ["desk"], input: Self.password).status == 0)
        let again = try await CommandRunner.run(arguments + ["DESK"], input: Self.password)
        #expect(again.status == 1)
        #expect(again.standardError.contains("the username DESK is already taken; choose another"))
    }

    /// A driver's username is its taxi's id; with --devices, the taxi must be in that file.
    @Test func aDriverDrivesARegisteredTaxi() async throws {
        let (data, cleanUp) = Self.dataDirectory()
        defer { cleanUp() }
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let devices = data + "/devices.csv"
        try "device_id,taxi_id\n359710049000017,T-17\n".write(toFile: devices, atomically: true, encoding: .utf8)
        let arguments = ["accounts", "create", "--data-dir", data, "--role", "driver", "--devices", devices, "--password-stdin"]
        let unknown = try await CommandRunner.run(arguments + ["--username", "T-99"], input: Self.password)
        #expect(unknown.status == 1)
        #expect(unknown.standardError.contains("the taxi T-99 is not in the devices file"))
        let driver = try await CommandRunner.run(arguments + ["--username", "T-17"], input: Self.password)
        #expect(driver.status == 0, "\(driver.standardError)")
        #expect(driver.lines == ["created account 1: T-17 (driver), taxi T-17"])
        let listed = try await CommandRunner.run(["accounts", "list", "--data-dir", data, "--role", "driver"])
        #expect(listed.lines == ["1: T-17 (driver), taxi T-17, active"])
        #expect(try await CommandRunner.run(["accounts", "list", "--data-dir", data, "--role", "planner"]).lines == [])
    }

    @Test func withoutAPasswordOnStandardInputTheCommandIsMisused() async throws {
        let (data, cleanUp) = Self.dataDirectory()
        defer { cleanUp() }
        let arguments = ["accounts", "create", "--data-dir", data, "--role", "administrator", "--username", "root"]
        let noFlag = try await CommandRunner.run(arguments, input: Self.password)
        #expect(noFlag.status == 2)
        #expect(noFlag.standardError.contains("--password-stdin"))
        let empty = try await CommandRunner.run(arguments + ["--password-stdin"], input: "")
        #expect(empty.status == 2)
        #expect(empty.standardError.contains("no password on standard input"))
    }

    @Test func listExitsTwoWhenTheDataDirectoryDoesNotExist() async throws {
        let result = try await CommandRunner.run(["accounts", "list", "--data-dir", "/nonexistent/mytaxi-data"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("/nonexistent/mytaxi-data"))
    }

    @Test func anUnknownRoleIsRefusedByTheParserWithTheRolesThereAre() async throws {
        let result = try await CommandRunner.run(
            ["accounts", "create", "--data-dir", "/tmp", "--role", "king", "--username", "x", "--password-stdin"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("administrator"))
    }
}
