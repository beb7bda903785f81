import Foundation
import Testing

/// The fuzz targets (Fuzz/, `make fuzz`) replay their seeds without a
/// finding in a normal build: the harness itself works, and every input the
/// fuzzer once found (saved in Fuzz/Seeds) stays fixed.
@Suite(.timeLimit(.minutes(20))) struct FuzzReplayTests {
    static var fuzz: URL { CommandRunner.binary.deletingLastPathComponent().appendingPathComponent("mytaxi-fuzz") }

    @Test(arguments: [
        "line", "line-udp", "nmea", "osmand", "teltonika", "teltonika-udp", "gt06", "pipeline",
        "zones-upload", "graph-file", "speed-profile", "serve-config",
    ])
    func everySeedReplaysWithoutAFinding(target: String) async throws {
        let seeds = CommandRunner.packageRoot.appendingPathComponent("Fuzz/Seeds/\(target)")
        let files = try FileManager.default.contentsOfDirectory(atPath: seeds.path).map { seeds.appendingPathComponent($0).path }
        #expect(!files.isEmpty, "no seeds for \(target)")
        let (status, output) = try await DurabilityTests.run(Self.fuzz, [target] + files, in: seeds)
        #expect(status == 0, "\(output)")
        #expect(output.contains("\(files.count) inputs replayed through \(target) without a finding"))
    }

    @Test func anUnknownTargetIsNamedWithTheChoices() async throws {
        let (status, output) = try await DurabilityTests.run(Self.fuzz, ["bogus"], in: CommandRunner.packageRoot)
        #expect(status == 2)
        #expect(output.contains("usage: mytaxi-fuzz line|"))
    }
}
