import Foundation
import GeoKit
import JSONKit
import Testing

/// SPEC I6 on a real full disk (a small tmpfs as the data directory): a fix
/// whose commit failed gets no ACK; once space is back, the terminal's
/// resend is stored and only then acknowledged, and the server kept serving
/// throughout. Needs root (to mount); skipped otherwise.
@Suite(.serialized, .timeLimit(.minutes(20))) struct DiskFullTests {
    /// True when this process can mount a tmpfs (root, and a kernel that allows it here).
    static let canMountTmpfs: Bool = {
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("mytaxi-mount-probe-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: probe, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: probe) }
        guard getuid() == 0, shell("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", probe.path) == 0 else { return false }
        _ = shell("umount", probe.path)
        return true
    }()

    @discardableResult
    static func shell(_ arguments: String...) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }

    @Test(.enabled(if: canMountTmpfs, "needs root to mount a small tmpfs as a full disk"))
    func aFixRefusedOnAFullDiskIsStoredWhenResentAfterSpaceIsFreed() async throws {
        let directory = try DurabilityTests.makeDirectory()
        let data = directory.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        #expect(Self.shell("mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", data.path) == 0)
        defer {
            Self.shell("umount", "-l", data.path)
            try? FileManager.default.removeItem(at: directory)
        }
        try "device_id,taxi_id\nD1,TX1\n".write(to: directory.appendingPathComponent("devices.csv"), atomically: true, encoding: .utf8)
        let service = try await ServiceProcess(
            arguments: DurabilityTests.serveArguments(only: "line"), directory: directory, expectedListeners: ["line/tcp", "http"])
        defer { service.stop() }
        let port = try #require(service.ports["line/tcp"])

        // Leave the archive about 256 KB, then stream until a commit fails.
        let filler = data.appendingPathComponent("filler")
        Self.shell("sh", "-c", "dd if=/dev/zero of='\(filler.path)' bs=64k 2>/dev/null; truncate -s -256K '\(filler.path)'")
        let first = Int(Date().timeIntervalSince1970) - 6 * 24 * 3600
        func line(_ seq: Int) -> String {
            "MT1,D1,\(seq),\(first + seq),\(43.73 + Double(seq % 500) * 0.00001),7.42,20,90,A\n"
        }
        var client = try ServeCommandTests.TCPClient(port: port)
        var seq = 0
        var unacknowledged: [Int] = []
        while seq < 200_000, unacknowledged.isEmpty {
            let batch = Array(seq..<seq + 20)
            seq += 20
            client.send(Array(batch.map(line).joined().utf8))
            let replies = String(decoding: client.receive(atLeast: batch.map { "ACK,\($0)\n".utf8.count }.reduce(0, +)).bytes, as: UTF8.self)
            unacknowledged = batch.filter { !replies.contains("ACK,\($0)\n") }
        }
        #expect(!unacknowledged.isEmpty, "the disk never filled")
        #expect(try await service.get("/healthz").status == 503, "the failing archive shows in /healthz")
        let metrics = String(decoding: try await service.get("/metrics").body, as: UTF8.self)
        #expect(!metrics.contains("mytaxi_archive_failures_total 0"), "commit failures are counted")

        // Space is back: the terminal reconnects and resends what got no ACK.
        try FileManager.default.removeItem(at: filler)
        client = try ServeCommandTests.TCPClient(port: port)
        client.send(Array(unacknowledged.map(line).joined().utf8))
        let expected = unacknowledged.map { "ACK,\($0)\n" }.joined()
        #expect(String(decoding: client.receive(atLeast: expected.utf8.count).bytes, as: UTF8.self) == expected)
        let (status, body) = try await service.recentFixes(of: "TX1")
        #expect(status == 200)
        guard case .array(let fixes) = try JSONParser.parse(body) else {
            Issue.record("the fixes of TX1 are not a JSON array")
            return
        }
        let archived = Set(fixes.compactMap { $0["time"]?.scalarText })
        for resent in unacknowledged {
            #expect(archived.contains(FixTimeText.iso8601(seconds: first + resent)), "resent fix \(resent) is archived")
        }
    }
}
