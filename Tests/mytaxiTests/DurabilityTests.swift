import Foundation
import GeoKit
import JSONKit
import Testing

/// SPEC I6: a fix acknowledged to a device survives `kill -9`, and the live
/// index comes back from the archive after a restart, over every listener.
@Suite(.serialized, .timeLimit(.minutes(20))) struct DurabilityTests {
    static var loadgen: URL { CommandRunner.binary.deletingLastPathComponent().appendingPathComponent("mytaxi-loadgen") }

    /// Runs `executable arguments...` in `directory` and waits for it off
    /// the cooperative pool, in one of ``ChildProcessSlots/commands``: its
    /// exit status and its output (both streams).
    static func run(_ executable: URL, _ arguments: [String], in directory: URL) async throws -> (status: Int32, output: String) {
        try await ChildProcessSlots.commands.run { try await offThePool { try runBlocking(executable, arguments, in: directory) } }
    }

    private static func runBlocking(_ executable: URL, _ arguments: [String], in directory: URL) throws -> (status: Int32, output: String) {
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

    /// A fresh working directory; the caller removes it.
    static func makeDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mytaxi-durability-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// `mytaxi serve` arguments with only `listener`'s protocol on (`line`,
    /// `gt06`, `teltonika`, `osmand`), every port picked by the OS.
    static func serveArguments(only wireProtocol: String) -> [String] {
        var arguments = [
            "--zones", CommandRunner.packageRoot.appendingPathComponent("Zones/monaco/zones.geojson").path,
            "--devices", "devices.csv", "--data-dir", "data", "--http-port", "0",
        ]
        for name in ["line", "nmea", "osmand", "teltonika", "gt06"] {
            arguments += ["--\(name)-port", name == wireProtocol ? "0" : "off"]
        }
        return arguments
    }

    /// The load generator streams fixes for 3 s over `listener` and the
    /// server is killed after 1.5 s, in the middle of the stream.
    @Test(arguments: [
        ("line", "tcp", "line/tcp"), ("gt06", "tcp", "gt06/tcp"), ("teltonika", "tcp", "teltonika/tcp"),
        ("teltonika", "udp", "teltonika-udp/udp"),
    ])
    func everyAcknowledgedFixSurvivesKillNine(wireProtocol: String, transport: String, listener: String) async throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let devices = 200
        _ = try await Self.run(
            Self.loadgen, ["--protocol", wireProtocol, "--devices", "\(devices)", "--write-devices", "devices.csv"], in: directory)
        let arguments = Self.serveArguments(only: wireProtocol)
        let first = try await ServiceProcess(arguments: arguments, directory: directory, expectedListeners: [listener, "http"])
        let acked = try await Self.stream(
            to: first, listener: listener, load: ["--protocol", wireProtocol, "--transport", transport, "--devices", "\(devices)"],
            in: directory) { $0.kill() }
        #expect(acked.count > 500, "the stream should have been acknowledged for a while before the kill")
        try await Self.expectArchivedAfterRestart(acked, arguments: arguments, in: directory)
    }

    /// Streams fixes from the load generator to `service`'s `listener` for
    /// 3 s (`load`: its protocol, transport and devices), does `interrupt`
    /// to the service 1.5 s in, and returns every fix the load generator
    /// saw acknowledged, waiting `drainSeconds` after the stream for the
    /// last acknowledgements.
    static func stream(
        to service: ServiceProcess, listener: String, load loadArguments: [String], drainSeconds: Int = 1, in directory: URL,
        interrupt: (ServiceProcess) -> Void
    ) async throws -> [(device: String, time: String)] {
        let port = try #require(service.ports[listener])
        let load = Process()
        load.executableURL = Self.loadgen
        load.arguments = loadArguments + [
            "--port", "\(port)", "--window", "4", "--count", "10000000", "--duration", "3", "--drain-seconds", "\(drainSeconds)",
            "--acked-out", "acked.csv", "--metrics-url", "http://127.0.0.1:1/none",
        ]
        load.currentDirectoryURL = directory
        load.standardOutput = FileHandle.nullDevice
        try load.run()
        try await Task.sleep(for: .milliseconds(1500))
        interrupt(service)
        try await offThePool { load.waitUntilExit() }
        return try String(contentsOf: directory.appendingPathComponent("acked.csv"), encoding: .utf8)
            .split(separator: "\n").dropFirst().map { $0.split(separator: ",").map(String.init) }
            .compactMap { $0.count == 3 ? (device: $0[0], time: $0[2]) : nil }
    }

    /// SIGTERM in the middle of a stream: the service stops in order (HTTP,
    /// then the listeners, then the archive writes what is queued, then the
    /// event loops), exits 0 with nothing at error level in its log, and
    /// every fix it acknowledged is archived.
    @Test func sigtermUnderLoadExitsCleanlyAndLosesNothing() async throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try await Self.run(Self.loadgen, ["--devices", "200", "--write-devices", "devices.csv"], in: directory)
        let arguments = Self.serveArguments(only: "line")
        let first = try await ServiceProcess(arguments: arguments, directory: directory, expectedListeners: ["line/tcp", "http"])
        let acked = try await Self.stream(to: first, listener: "line/tcp", load: ["--devices", "200"], drainSeconds: 2, in: directory) {
            $0.stop()
        }
        #expect(first.process.terminationStatus == 0)
        let log = try String(contentsOf: first.errorLog, encoding: .utf8)
        let errors = log.split(separator: "\n").filter { $0.contains(" error ") || $0.contains(" critical ") }
        #expect(errors.isEmpty, "\(errors.joined(separator: "\n"))")
        #expect(acked.count > 500)
        try await Self.expectArchivedAfterRestart(acked, arguments: arguments, in: directory)
    }

    /// Phones of the Traccar Client app post fixes over HTTP while the
    /// server is killed; every fix answered 200 is in the archive after the restart.
    @Test func everyFixAnswered200OverOsmAndSurvivesKillNine() async throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let phones = (1...8).map { "phone\($0)" }
        try ("device_id,taxi_id\n" + phones.map { "\($0),TX-\($0)\n" }.joined())
            .write(to: directory.appendingPathComponent("devices.csv"), atomically: true, encoding: .utf8)
        let arguments = Self.serveArguments(only: "osmand")
        let first = try await ServiceProcess(arguments: arguments, directory: directory, expectedListeners: ["osmand/http", "http"])
        let port = try #require(first.ports["osmand/http"])

        let start = Int(Date().timeIntervalSince1970) - 3_600
        let acked = try await OsmAndPhones(port: port, phones: phones, firstSecond: start).post(killing: first, after: 1.5, thenFor: 1.5)
        #expect(acked.count > 100, "the phones should have been answered for a while before the kill")
        try await Self.expectArchivedAfterRestart(acked, arguments: arguments, in: directory)
    }

    /// Restarts the server on the same archive and checks that every
    /// acknowledged (device, time) is archived and each taxi's live position
    /// is its newest archived fix.
    static func expectArchivedAfterRestart(
        _ acked: [(device: String, time: String)], arguments: [String], in directory: URL
    ) async throws {
        let taxiOfDevice = Dictionary(
            try String(contentsOf: directory.appendingPathComponent("devices.csv"), encoding: .utf8)
                .split(separator: "\n").dropFirst().map { $0.split(separator: ",").map(String.init) }
                .filter { $0.count == 2 }.map { ($0[0], $0[1]) },
            uniquingKeysWith: { first, _ in first })
        var ackedTimesByTaxi: [String: Set<String>] = [:]
        for fix in acked {
            guard let taxi = taxiOfDevice[fix.device] else {
                Issue.record("acknowledged fix of unknown device \(fix.device)")
                continue
            }
            ackedTimesByTaxi[taxi, default: []].insert(fix.time)
        }
        let second = try await ServiceProcess(arguments: arguments, directory: directory, expectedListeners: ["http"])
        defer { second.stop() }
        var missing = 0
        for (taxi, times) in ackedTimesByTaxi {
            let (status, body) = try await second.recentFixes(of: taxi)
            #expect(status == 200)
            guard case .array(let fixes) = try JSONParser.parse(body) else {
                Issue.record("fixes of \(taxi) are not a JSON array")
                continue
            }
            let archived = Set(fixes.compactMap { $0["time"]?.scalarText })
            missing += times.subtracting(archived).count
            let (liveStatus, liveBody) = try await second.get("/v1/taxis/\(taxi)")
            #expect(liveStatus == 200)
            #expect(try JSONParser.parse(liveBody)["time"]?.scalarText == archived.max())
        }
        #expect(missing == 0, "\(missing) acknowledged fixes are not in the archive after kill -9")
    }
}

/// Phones posting OsmAnd fixes one after the other, each on its own thread,
/// one fix a second of fix time apart; what was answered 200.
struct OsmAndPhones {
    let port: Int
    let phones: [String]
    let firstSecond: Int

    /// Posts, kills `service` after `killAfter` seconds, posts `secondsAfter`
    /// more, and returns every (device, ISO time) answered 200.
    func post(killing service: ServiceProcess, after killAfter: Double, thenFor secondsAfter: Double) async throws
        -> [(device: String, time: String)] {
        try await offThePool {
            post(meanwhile: {
                Thread.sleep(forTimeInterval: killAfter)
                service.kill()
            }, thenFor: secondsAfter).map { ($0.device, $0.time) }
        }
    }

    /// Posts while `meanwhile` runs on the calling thread and for
    /// `secondsAfter` once it has returned (however long it took, say a
    /// database restarting on a loaded machine), and returns every
    /// (device, ISO time) answered 200, with when the answer came.
    func post(meanwhile: () -> Void, thenFor secondsAfter: Double) -> [(device: String, time: String, answeredAt: Date)] {
        let answered = ResultsBox()
        let deadline = DeadlineBox()
        let group = DispatchGroup()
        for (index, phone) in phones.enumerated() {
            group.enter()
            Thread.detachNewThread {
                var second = firstSecond
                while !deadline.hasPassed {
                    second += 1
                    // A triangle wave: the phone walks back and forth 66 m
                    // without a jump, so validation refuses none of its fixes
                    // (a refused fix is answered 200 too, and is not archived).
                    let step = second % 1_200 < 600 ? second % 600 : 600 - second % 600
                    let latitude = 43.73 + Double(step) * 0.000_01 + Double(index) * 0.001
                    let query = "id=\(phone)&lat=\(latitude)&lon=7.42&timestamp=\(second)&speed=5"
                    if post(query) == 200 { answered.append((phone, FixTimeText.iso8601(seconds: second), Date())) }
                }
                group.leave()
            }
        }
        meanwhile()
        deadline.set(Date().addingTimeInterval(secondsAfter))
        group.wait()
        return answered.values
    }

    /// The status of one GET, 0 when the request failed or got no answer
    /// within 2 s. Over a plain socket, not URLSession: on Linux its
    /// socket sources crash the process now and then when requests are
    /// refused or time out, which is what a killed service does to them.
    func post(_ query: String) -> Int {
        guard let client = try? ServeCommandTests.TCPClient(port: port, receiveTimeoutSeconds: 2) else { return 0 }
        client.send(Array("GET /?\(query) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
        let head = String(decoding: client.receive(atLeast: 12).bytes, as: UTF8.self)
        guard head.hasPrefix("HTTP/1.1 "), head.count >= 12 else { return 0 }
        return Int(head.dropFirst(9).prefix(3)) ?? 0
    }
}

/// When the phones stop posting: not before it is set.
final class DeadlineBox: @unchecked Sendable {
    private let lock = NSLock()
    private var deadline = Date.distantFuture

    func set(_ date: Date) { lock.withLock { deadline = date } }
    var hasPassed: Bool { lock.withLock { Date() >= deadline } }
}

/// Answers gathered from several threads.
final class ResultsBox: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [(device: String, time: String, answeredAt: Date)] = []

    func append(_ item: (device: String, time: String, answeredAt: Date)) {
        lock.withLock { items.append(item) }
    }

    var values: [(device: String, time: String, answeredAt: Date)] { lock.withLock { items } }
}
