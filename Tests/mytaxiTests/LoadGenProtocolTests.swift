import Foundation
import Testing

/// `mytaxi-loadgen --protocol gt06|teltonika` against `mytaxi serve`: 50
/// devices log in with IMEIs from the devices file the load generator wrote,
/// stream fixes for a few seconds, and every fix sent is acknowledged (ACKs
/// matched by GT06 serial, Teltonika record counts in order) and archived;
/// and `--rate` offers the asked number of fixes per second whatever the ACKs do.
@Suite(.serialized, .timeLimit(.minutes(20))) struct LoadGenProtocolTests {
    /// Runs the load generator with `arguments` in `directory`; its exit status and output.
    func loadgen(_ arguments: [String], in directory: URL) async throws -> (status: Int32, output: String) {
        try await DurabilityTests.run(DurabilityTests.loadgen, arguments, in: directory)
    }

    /// A fresh working directory; the caller removes it.
    func makeDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mytaxi-loadgen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// `mytaxi serve` on Monaco's zones with `directory`'s devices.csv, only
    /// `wireProtocol`'s listeners on (ports picked by the OS), once `listener` is up.
    func serve(in directory: URL, protocol wireProtocol: String, listener: String) async throws -> ServiceProcess {
        var arguments = [
            "--zones", CommandRunner.packageRoot.appendingPathComponent("Zones/monaco/zones.geojson").path,
            "--devices", "devices.csv", "--data-dir", "data", "--http-port", "0",
        ]
        for name in ["line", "nmea", "osmand", "teltonika", "gt06"] {
            arguments += ["--\(name)-port", name == wireProtocol ? "0" : "off"]
        }
        return try await ServiceProcess(arguments: arguments, directory: directory, expectedListeners: [listener, "http"])
    }

    /// The number on the report line starting with `label`.
    func count(_ label: String, in report: String) -> Int? {
        report.split(separator: "\n").first { $0.hasPrefix(label) }
            .flatMap { $0.dropFirst(label.count).split(separator: " ").first }.flatMap { Int($0) }
    }

    @Test(arguments: [("gt06", "gt06/tcp"), ("teltonika", "teltonika/tcp")])
    func everySentFixIsAcknowledgedAndArchived(wireProtocol: String, listener: String) async throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let written = try await loadgen(["--protocol", wireProtocol, "--devices", "50", "--write-devices", "devices.csv"], in: directory)
        #expect(written.status == 0, "\(written.output)")
        let devices = try String(contentsOf: directory.appendingPathComponent("devices.csv"), encoding: .utf8)
        let ids = devices.split(separator: "\n").dropFirst().map { line in line.prefix { $0 != "," } }
        #expect(ids.count == 50 && ids.allSatisfy { $0.count == 15 && $0.allSatisfy(\.isNumber) }, "IMEIs")

        let service = try await serve(in: directory, protocol: wireProtocol, listener: listener)
        defer { service.stop() }
        let port = try #require(service.ports[listener])
        let http = try #require(service.ports["http"])
        let run = try await loadgen(
            [
                "--protocol", wireProtocol, "--port", "\(port)", "--devices", "50", "--window", "4", "--count", "10000000",
                "--duration", "3", "--drain-seconds", "5", "--metrics-url", "http://127.0.0.1:\(http)/metrics",
            ],
            in: directory)
        #expect(run.status == 0, "\(run.output)")
        let sent = try #require(count("fixes sent:", in: run.output), "\(run.output)")
        #expect(sent > 500, "\(run.output)")
        #expect(count("fixes acknowledged:", in: run.output) == sent, "\(run.output)")
        #expect(count("fixes archived:", in: run.output) == sent, "\(run.output)")
    }

    @Test(arguments: [("tcp", 1), ("udp", 1), ("tcp", 5), ("udp", 5)])
    func aFixedRateIsOfferedOverEitherTransport(transport: String, fixesPerWrite: Int) async throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let written = try await loadgen(["--devices", "20", "--write-devices", "devices.csv"], in: directory)
        #expect(written.status == 0, "\(written.output)")
        let listener = "line/\(transport)"
        let service = try await serve(in: directory, protocol: "line", listener: listener)
        defer { service.stop() }
        let port = try #require(service.ports[listener])
        let http = try #require(service.ports["http"])
        // 20 devices × 25 fixes/s × 2 s: 1,000 fixes offered, whatever the window.
        let run = try await loadgen(
            [
                "--transport", transport, "--port", "\(port)", "--devices", "20", "--rate", "25", "--window", "1",
                "--records-per-packet", "\(fixesPerWrite)",
                "--count", "10000000", "--duration", "2", "--drain-seconds", "5",
                "--metrics-url", "http://127.0.0.1:\(http)/metrics",
            ],
            in: directory)
        #expect(run.status == 0, "\(run.output)")
        let sent = try #require(count("fixes sent:", in: run.output), "\(run.output)")
        #expect((900...1_000).contains(sent), "\(run.output)")
        #expect(count("fixes acknowledged:", in: run.output) == sent, "\(run.output)")
        #expect(count("fixes archived:", in: run.output) == sent, "\(run.output)")
    }
}
