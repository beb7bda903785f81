import Foundation
import GeoKit
import Testing

/// SPEC I6: a fix acknowledged to a device survives `kill -9`, and the live
/// index comes back from the archive after a restart.
@Suite(.serialized) struct DurabilityTests {
    static var loadgen: URL { CommandRunner.binary.deletingLastPathComponent().appendingPathComponent("mytaxi-loadgen") }

    static func run(_ executable: URL, _ arguments: [String], in directory: URL) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func everyAcknowledgedFixSurvivesKillNine() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mytaxi-durability-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let devices = 200
        _ = try Self.run(Self.loadgen, ["--devices", "\(devices)", "--write-devices", "devices.csv"], in: directory)
        let zones = CommandRunner.packageRoot.appendingPathComponent("Zones/monaco/zones.geojson").path
        let arguments = [
            "--zones", zones, "--devices", "devices.csv", "--data-dir", "data", "--http-port", "0",
            "--line-port", "0", "--nmea-port", "off", "--osmand-port", "off", "--teltonika-port", "off", "--gt06-port", "off",
        ]
        let first = try ServiceProcess(arguments: arguments, directory: directory, expectedListeners: ["line/tcp", "http"])
        let linePort = try #require(first.ports["line/tcp"])

        // Stream fixes for 3 s; kill the server after 1.5 s, in the middle of the stream.
        let load = Process()
        load.executableURL = Self.loadgen
        load.arguments = [
            "--port", "\(linePort)", "--devices", "\(devices)", "--window", "4", "--count", "10000000",
            "--duration", "3", "--drain-seconds", "1", "--acked-out", "acked.csv", "--metrics-url", "http://127.0.0.1:1/none",
        ]
        load.currentDirectoryURL = directory
        load.standardOutput = FileHandle.nullDevice
        try load.run()
        Thread.sleep(forTimeInterval: 1.5)
        first.kill()
        load.waitUntilExit()

        let acked = try String(contentsOf: directory.appendingPathComponent("acked.csv"), encoding: .utf8)
            .split(separator: "\n").dropFirst().map { $0.split(separator: ",").map(String.init) }
        #expect(acked.count > 1_000, "the stream should have been acknowledged for a while before the kill")

        let second = try ServiceProcess(arguments: arguments, directory: directory, expectedListeners: ["http"])
        defer { second.stop() }
        var ackedTimesByTaxi: [String: Set<String>] = [:]
        for fields in acked where fields.count == 3 {
            ackedTimesByTaxi["TX" + fields[0].dropFirst(2), default: []].insert(fields[2])
        }
        var missing = 0
        for (taxi, times) in ackedTimesByTaxi {
            let (status, body) = try second.get("/v1/taxis/\(taxi)/fixes?from=2000-01-01T00:00:00Z&to=2100-01-01T00:00:00Z")
            #expect(status == 200)
            guard case .array(let fixes) = try JSONParser.parse(body) else {
                Issue.record("fixes of \(taxi) are not a JSON array")
                continue
            }
            let archived = Set(fixes.compactMap { $0["time"]?.scalarText })
            missing += times.subtracting(archived).count
            // The live index is rebuilt: the taxi is at its newest archived fix.
            let (liveStatus, liveBody) = try second.get("/v1/taxis/\(taxi)")
            #expect(liveStatus == 200)
            #expect(try JSONParser.parse(liveBody)["time"]?.scalarText == archived.max())
        }
        #expect(missing == 0, "\(missing) acknowledged fixes are not in the archive after kill -9")
    }
}
