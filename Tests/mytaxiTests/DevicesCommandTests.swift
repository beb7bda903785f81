import Foundation
import Testing

/// `mytaxi devices import` and `list`: a devices file into the store, checked
/// whole first, with secrets kept but never printed.
@Suite(.timeLimit(.minutes(20))) struct DevicesCommandTests {
    @Test func aDevicesFileIsImportedWholeAndListedWithoutItsSecrets() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mytaxi-devices-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data").path
        let created = try await CommandRunner.run(
            ["accounts", "create", "--data-dir", data, "--role", "administrator", "--username", "root", "--password-stdin"],
            input: "analytical-1")
        #expect(created.status == 0)
        let bad = folder.appendingPathComponent("bad.csv")
        try "device_id,taxi_id,secret,seats\nimei-1,T1,,6\nimei-2\n".write(to: bad, atomically: true, encoding: .utf8)
        let refused = try await CommandRunner.run(["devices", "import", "--data-dir", data, bad.path])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("line 3"), "\(refused.standardError)")
        #expect(try await CommandRunner.run(["devices", "list", "--data-dir", data]).lines.isEmpty, "a bad file imports nothing")

        let good = folder.appendingPathComponent("devices.csv")
        try "device_id,taxi_id,secret,seats\nimei-1,T1,,6\nphone-1,T1,s3cret-phone,6\nimei-2,T2\n".write(to: good, atomically: true, encoding: .utf8)
        let imported = try await CommandRunner.run(["devices", "import", "--data-dir", data, good.path])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.lines == ["imported 3 devices of 2 taxis from \(good.path)"])
        let listed = try await CommandRunner.run(["devices", "list", "--data-dir", data])
        #expect(listed.lines == [
            "taxi T1: no plate, 6 seats", "  device imei-1", "  device phone-1, with a secret",
            "taxi T2: no plate, 4 seats", "  device imei-2",
        ])
        #expect(!listed.standardOutput.contains("s3cret"))
        let audit = try await CommandRunner.run(["accounts", "audit", "--data-dir", data, "--limit", "1"])
        #expect(audit.lines.first?.contains("console devices.import \(good.path): 2 taxis, 3 devices") == true, "\(audit.lines)")
        #expect(try await CommandRunner.run(["devices", "import", "--data-dir", data, folder.appendingPathComponent("none.csv").path]).status == 2)
    }
}
