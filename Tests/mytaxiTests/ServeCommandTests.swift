import Foundation
import GeoKit
import JSONKit
import TestSupport
import Testing

/// `mytaxi serve` end to end over loopback: every listener takes a fix and
/// ACKs it, the API shows it, bad input is refused without hurting others.
@Suite(.serialized, .timeLimit(.minutes(20))) final class ServeCommandTests: Sendable {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("mytaxi-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try "device_id,taxi_id\nLINE-1,TX1\nNMEA-1,TX2\n902064,TX3\nUDP-1,TX4\n"
            .write(to: directory.appendingPathComponent("devices.csv"), atomically: true, encoding: .utf8)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    var arguments: [String] {
        [
            "--zones", CommandRunner.packageRoot.appendingPathComponent("Zones/manhattan/zones.geojson").path,
            "--devices", "devices.csv", "--data-dir", "data", "--http-port", "0", "--line-port", "0", "--nmea-port", "0",
            "--osmand-port", "0", "--teltonika-port", "0", "--gt06-port", "0",
        ]
    }

    /// A minimal TCP client over POSIX sockets: connect, send, read what comes back within a timeout.
    final class TCPClient {
        let socket: Int32

        /// Connects to `port` on loopback; a read gives up after `receiveTimeoutSeconds`.
        init(port: Int, receiveTimeoutSeconds: Int = 3) throws {
            socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var timeout = timeval(tv_sec: receiveTimeoutSeconds, tv_usec: 0)
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard result == 0 else { throw ServiceProcessError("cannot connect to port \(port)") }
        }

        deinit { close(socket) }

        /// Hangs up now (the socket stays allocated until deinit).
        func hangUp() {
            shutdown(socket, Int32(SHUT_RDWR))
        }

        func send(_ bytes: [UInt8]) {
            _ = bytes.withUnsafeBytes { Foundation.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }

        /// Reads until `count` bytes arrived, the peer closed (or reset), or the timeout; the bytes and whether it closed.
        func receive(atLeast count: Int) -> (bytes: [UInt8], closed: Bool) {
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while received.count < count {
                let n = recv(socket, &buffer, buffer.count, 0)
                if n == 0 { return (received, true) }
                if n < 0 { return (received, errno == ECONNRESET) }
                received += buffer[0..<n]
            }
            return (received, false)
        }
    }

    /// Sends one datagram and returns the first datagram answered (empty after a 3 s timeout).
    static func udpExchange(port: Int, payload bytes: [UInt8]) -> [UInt8] {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(socket) }
        var timeout = timeval(tv_sec: 3, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { target in
                bytes.withUnsafeBytes { sendto(socket, $0.baseAddress, $0.count, 0, target, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        var buffer = [UInt8](repeating: 0, count: 2048)
        let n = recv(socket, &buffer, buffer.count, 0)
        return n > 0 ? Array(buffer[0..<n]) : []
    }

    func liveTime(_ service: ServiceProcess, taxi: String) async throws -> String? {
        let (status, body) = try await service.get("/v1/taxis/\(taxi)")
        return status == 200 ? try JSONParser.parse(body)["time"]?.scalarText : nil
    }

    @Test func everyListenerAcknowledgesAndTheAPIShowsTheFix() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let service = try await ServiceProcess(
            arguments: arguments, directory: directory,
            expectedListeners: ["line/tcp", "line/udp", "nmea/tcp", "osmand/http", "http"])
        defer { service.stop() }
        let now = Int(Date().timeIntervalSince1970) - 5

        let line = try TCPClient(port: service.ports["line/tcp"]!)
        line.send(Array("MT1,LINE-1,41,\(now),40.758896,-73.985130,23.5,271,A\n".utf8))
        #expect(String(decoding: line.receive(atLeast: 7).bytes, as: UTF8.self) == "ACK,41\n")
        let expected = FixTimeText.iso8601(seconds: now)
        #expect(try await liveTime(service, taxi: "TX1") == expected)
        let (status, body) = try await service.get("/v1/taxis/TX1")
        #expect(status == 200)
        #expect(try JSONParser.parse(body)["zoneId"] == .string("230"), "Times Square is in zone 230")

        let udpReply = Self.udpExchange(port: service.ports["line/udp"]!, payload: Array("MT1,UDP-1,7,\(now),40.75,-73.99,10,0,A\n".utf8))
        #expect(udpReply == Array("ACK,7\n".utf8))
        #expect(try await liveTime(service, taxi: "TX4") == expected)

        let nmea = try TCPClient(port: service.ports["nmea/tcp"]!)
        nmea.send(Array("NMEA-1\r\n".utf8) + Array(Self.rmc(seconds: now).utf8))
        try await waitUntil("TX2's NMEA fix in the live index") { try await liveTime(service, taxi: "TX2") } satisfies: { $0 == expected }

        let (osmandStatus, _) = try await service.get(
            "/?id=902064&lat=40.7128&lon=-74.0060&timestamp=\(now)", port: service.ports["osmand/http"]!)
        #expect(osmandStatus == 200)
        #expect(try await liveTime(service, taxi: "TX3") == expected)
    }

    @Test func garbageCostsOnlyItsOwnConnection() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let service = try await ServiceProcess(arguments: arguments, directory: directory, expectedListeners: ["line/tcp", "http"])
        defer { service.stop() }
        let port = service.ports["line/tcp"]!
        let good = try TCPClient(port: port)
        let now = Int(Date().timeIntervalSince1970) - 60
        good.send(Array("MT1,LINE-1,1,\(now),40.75,-73.98,10,0,A\n".utf8))
        #expect(good.receive(atLeast: 6).bytes == Array("ACK,1\n".utf8))

        // A bad line is skipped, the connection goes on.
        let noisy = try TCPClient(port: port)
        noisy.send(Array("MT1,LINE-1,2,yesterday,40.75,-73.98,10,0,A\nMT1,LINE-1,3,\(now + 1),40.75,-73.98,10,0,A\n".utf8))
        #expect(noisy.receive(atLeast: 6).bytes == Array("ACK,3\n".utf8))

        // 1 MB of random bytes without a line end: that connection is closed.
        let hostile = try TCPClient(port: port)
        var generator = SystemRandomNumberGenerator()
        hostile.send((0..<1_000_000).map { _ in UInt8.random(in: 0...255, using: &generator) & 0xF7 })
        #expect(hostile.receive(atLeast: 1).closed)

        // Slow drip: one byte at a time still makes a fix.
        let slow = try TCPClient(port: port)
        for byte in Array("MT1,LINE-1,4,\(now + 2),40.75,-73.98,10,0,A\n".utf8) {
            slow.send([byte])
            try await Task.sleep(for: .milliseconds(2))
        }
        #expect(slow.receive(atLeast: 6).bytes == Array("ACK,4\n".utf8))

        // The first connection never noticed.
        good.send(Array("MT1,LINE-1,5,\(now + 3),40.75,-73.98,10,0,A\n".utf8))
        #expect(good.receive(atLeast: 6).bytes == Array("ACK,5\n".utf8))
        let metrics = String(decoding: try await service.get("/metrics").body, as: UTF8.self)
        #expect(metrics.contains(#"mytaxi_frames_rejected_total{protocol="line",reason="malformed"} 1"#))
        #expect(metrics.contains(#"mytaxi_frames_rejected_total{protocol="line",reason="oversized"} 1"#))
    }

    @Test func sighupReloadsTheDevicesFile() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let service = try await ServiceProcess(arguments: arguments, directory: directory, expectedListeners: ["line/tcp", "http"])
        defer { service.stop() }
        let client = try TCPClient(port: service.ports["line/tcp"]!)
        let now = Int(Date().timeIntervalSince1970) - 30
        client.send(Array("MT1,NEW-9,1,\(now),40.75,-73.98,10,0,A\n".utf8))
        #expect(client.receive(atLeast: 6).bytes == Array("ACK,1\n".utf8), "refused fixes are still acknowledged")
        #expect(try await service.get("/v1/taxis/TX9").status == 404)
        try "device_id,taxi_id\nLINE-1,TX1\nNEW-9,TX9\n"
            .write(to: directory.appendingPathComponent("devices.csv"), atomically: true, encoding: .utf8)
        kill(service.process.processIdentifier, SIGHUP)
        try await waitUntil("the devices file reloaded") { try service.log() } satisfies: { $0.contains("reloaded 2 devices") }
        client.send(Array("MT1,NEW-9,2,\(now + 1),40.75,-73.98,10,0,A\n".utf8))
        #expect(client.receive(atLeast: 6).bytes == Array("ACK,2\n".utf8))
        #expect(try await service.get("/v1/taxis/TX9").status == 200)
        let metrics = String(decoding: try await service.get("/metrics").body, as: UTF8.self)
        #expect(metrics.contains(#"mytaxi_fixes_rejected_total{protocol="line",reason="unknown_device"} 1"#))
    }

    @Test func missingSettingsAreNamed() async throws {
        let result = try await CommandRunner.run(["serve", "--zones", "Zones/manhattan/zones.geojson"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("missing --devices FILE"))
        let noGraph = try await CommandRunner.run(["serve", "--zones", "z", "--devices", "d", "--data-dir", "x"])
        #expect(noGraph.status == 2)
        #expect(noGraph.standardError.contains("missing --graph FILE"), "\(noGraph.standardError)")
        #expect(noGraph.standardError.contains("mytaxi graph build"), "the error says how to make one")
        let noStore = try await CommandRunner.run(
            ["serve", "--zones", "z", "--devices", "d", "--graph", "g"], environment: ["MYTAXI_DATABASE_URL": ""])
        #expect(noStore.status == 2)
        #expect(noStore.standardError.contains("missing --data-dir DIR"), "\(noStore.standardError)")
        #expect(noStore.standardError.contains("or --database URL"), "the error names the store that needs no directory")
        let badPort = try await CommandRunner.run(["serve", "--zones", "z", "--devices", "d", "--data-dir", "x", "--graph", "g", "--gt06-port", "abc"])
        #expect(badPort.status == 2)
        #expect(badPort.standardError.contains("--gt06-port must be a port number"))
    }

    /// A node of several needs the shared database and an address the
    /// other nodes reach it at; the error says which is missing.
    @Test func aNodeOfSeveralNamesWhatItLacks() async throws {
        let files = ["serve", "--zones", "z", "--devices", "d", "--graph", "g"]
        let onSQLite = try await CommandRunner.run(
            files + ["--data-dir", "x", "--node-id", "a", "--advertise", "http://127.0.0.1:8080"], environment: ["MYTAXI_DATABASE_URL": ""])
        #expect(onSQLite.status == 2)
        #expect(onSQLite.standardError.contains("--node-id needs --database URL"), "\(onSQLite.standardError)")
        let database = ["--database", "postgres://mytaxi@127.0.0.1:1/mytaxi"]
        let noAddress = try await CommandRunner.run(files + database + ["--node-id", "a"])
        #expect(noAddress.status == 2)
        #expect(noAddress.standardError.contains("--node-id needs --advertise http://HOST:PORT"), "\(noAddress.standardError)")
        let badAddress = try await CommandRunner.run(files + database + ["--node-id", "a", "--advertise", "10.0.0.5:8080"])
        #expect(badAddress.standardError.contains("--advertise must be an http:// or https:// URL"), "\(badAddress.standardError)")
        let badName = try await CommandRunner.run(files + database + ["--node-id", "a b", "--advertise", "http://a:1"])
        #expect(badName.standardError.contains("--node-id must be"), "\(badName.standardError)")
        let shortLease = try await CommandRunner.run(
            files + database + ["--node-id", "a", "--advertise", "http://a:1", "--dispatch-lease-seconds", "0.5"])
        #expect(shortLease.standardError.contains("--dispatch-lease-seconds must be"), "\(shortLease.standardError)")
        let alone = try await CommandRunner.run(files + database + ["--advertise", "http://a:1"])
        #expect(alone.standardError.contains("give --node-id NAME too"), "\(alone.standardError)")
    }

    /// Every number a flag or the config file gives must be finite and in
    /// range: `--idle-timeout nan` used to trap at start.
    @Test(arguments: [
        ("--idle-timeout", "nan"), ("--idle-timeout", "inf"), ("--stale-after", "nan"), ("--login-timeout", "1e400"),
        ("--http-timeout", "0"), ("--login-timeout", "1e-9"), ("--max-connections", "0"), ("--http-max-connections", "0"),
        ("--http-port", "70000"), ("--offer-timeout", "nan"), ("--confirmation-timeout", "0"), ("--zone-dwell", "inf"),
        ("--stale-grace", "0"), ("--missing-client-wait", "1e400"), ("--fix-retention-days", "36501"),
        ("--compact-after-hours", "8761"), ("--clock-rate", "0.5"), ("--clock-rate", "nan"), ("--clock-start", "08:00"),
    ])
    func aBadNumberIsNamedNotATrap(flag: String, value: String) async throws {
        let result = try await CommandRunner.run(["serve", "--zones", "z", "--devices", "d", "--data-dir", "x", "--graph", "g", flag, value])
        #expect(result.status == 2)
        #expect(result.standardError.contains("\(flag) must be"), "\(result.standardError)")
    }

    /// The zone file options are those of every zone command, and the
    /// config file may give them: a tolerance there is checked the same way.
    @Test func zoneFileOptionsComeFromTheConfigFileToo() async throws {
        try #"{"zones": "z", "devices": "d", "data-dir": "x", "graph": "g", "name-property": "zone", "overlap-tolerance": -5}"#
            .write(to: directory.appendingPathComponent("zones.json"), atomically: true, encoding: .utf8)
        let result = try await CommandRunner.run(["serve", "--config", directory.appendingPathComponent("zones.json").path])
        #expect(result.status == 2)
        #expect(result.standardError.contains("--overlap-tolerance must be"), "\(result.standardError)")
        // As a flag it is checked by the option group every zone command
        // shares: a usage error (2), as for the zone commands.
        let flag = try await CommandRunner.run(["serve", "--zones", "z", "--devices", "d", "--data-dir", "x", "--graph", "g", "--overlap-tolerance", "nan"])
        #expect(flag.status == 2)
        #expect(flag.standardError.contains("--overlap-tolerance must be"), "\(flag.standardError)")
        let help = try await CommandRunner.run(["serve", "--help"]).standardOutput
        for flag in ["--id-property", "--name-property", "--overlap-tolerance"] {
            #expect(help.contains(flag), "\(flag) missing from serve --help")
        }
    }

    /// The router's graph file is checked at start: one that cannot be read is named.
    @Test func theDispatchersGraphIsCheckedAtStart() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appendingPathComponent("missing.graph").path
        let badGraph = try await CommandRunner.run([
            "serve", "--zones", CommandRunner.packageRoot.appendingPathComponent("Zones/manhattan/zones.geojson").path,
            "--devices", directory.appendingPathComponent("devices.csv").path,
            "--data-dir", directory.appendingPathComponent("data").path, "--graph", missing,
        ])
        #expect(badGraph.status == 2)
        #expect(badGraph.standardError.contains(missing), "\(badGraph.standardError)")
    }

    @Test func aBadNumberInTheConfigFileIsNamed() async throws {
        try #"{"zones": "z", "devices": "d", "data-dir": "x", "graph": "g", "idle-timeout": "nan"}"#
            .write(to: directory.appendingPathComponent("bad.json"), atomically: true, encoding: .utf8)
        let result = try await CommandRunner.run(["serve", "--config", directory.appendingPathComponent("bad.json").path])
        #expect(result.status == 2)
        #expect(result.standardError.contains("idle-timeout"), "\(result.standardError)")
    }

    /// The flags and the config file are read by one declaration: a flag
    /// given in both places takes the command line's value, and a key that
    /// is no flag is named instead of being ignored.
    @Test func aFlagWinsOverTheConfigFileAndAnUnknownKeyIsNamed() async throws {
        let path = directory.appendingPathComponent("ports.json").path
        try #"{"zones": "z", "devices": "d", "data-dir": "x", "graph": "g", "http-port": 99999}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        let fileOnly = try await CommandRunner.run(["serve", "--config", path])
        #expect(fileOnly.status == 2)
        #expect(fileOnly.standardError.contains("--http-port must be a port number"), "\(fileOnly.standardError)")
        let overridden = try await CommandRunner.run(["serve", "--config", path, "--http-port", "0", "--idle-timeout", "nan"])
        #expect(overridden.status == 2)
        #expect(overridden.standardError.contains("--idle-timeout must be"), "\(overridden.standardError)")
        #expect(!overridden.standardError.contains("--http-port"), "the flag's port replaced the file's: \(overridden.standardError)")
        let unknown = directory.appendingPathComponent("unknown.json").path
        try #"{"zones": "z", "devices": "d", "data-dir": "x", "graph": "g", "http-prot": 8080}"#
            .write(toFile: unknown, atomically: true, encoding: .utf8)
        let misspelt = try await CommandRunner.run(["serve", "--config", unknown])
        #expect(misspelt.status == 2)
        #expect(misspelt.standardError.contains("config file \(unknown)"), "\(misspelt.standardError)")
        #expect(misspelt.standardError.contains("http-prot"), "\(misspelt.standardError)")
    }

    @Test func aConfigFileSuppliesWhatFlagsDoNot() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = """
            {"zones": "\(CommandRunner.packageRoot.appendingPathComponent("Zones/manhattan/zones.geojson").path)",
             "graph": "\(try await DemoGraph.path())",
             "devices": "devices.csv", "data-dir": "data", "http-port": 0, "line-port": 0,
             "nmea-port": "off", "osmand-port": "off", "teltonika-port": "off", "gt06-port": "off"}
            """
        try config.write(to: directory.appendingPathComponent("mytaxi.json"), atomically: true, encoding: .utf8)
        let service = try await ServiceProcess(arguments: ["--config", "mytaxi.json"], directory: directory, expectedListeners: ["line/tcp", "http"])
        defer { service.stop() }
        #expect(service.ports["nmea/tcp"] == nil)
        #expect(try await service.get("/healthz").status == 200)
        let metrics = String(decoding: try await service.get("/metrics").body, as: UTF8.self)
        for name in ["mytaxi_dispatch_queued_taxis", "mytaxi_dispatch_open_requests", "mytaxi_dispatch_pending_offers"] {
            #expect(metrics.contains(name), "the dispatcher's \(name) is in /metrics")
        }
        #expect(try await Self.archiveBytes(service) > 0, "the archive's size on disk is in /metrics")
    }

    /// `mytaxi_archive_bytes` from `/metrics` once the service measured it.
    static func archiveBytes(_ service: ServiceProcess) async throws -> Double {
        try await waitUntil("the archive's size in /metrics") {
            let metrics = String(decoding: try await service.get("/metrics").body, as: UTF8.self)
            let line = metrics.split(separator: "\n").first { $0.hasPrefix("mytaxi_archive_bytes ") }
            return line.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
        } satisfies: { $0 > 0 }
    }

    @Test func helpDocumentsEveryFlagAndDefault() async throws {
        let help = try await CommandRunner.run(["serve", "--help"]).standardOutput
        for flag in ["--zones", "--devices", "--data-dir", "--http-port", "--bind", "--config", "--line-port", "--nmea-port",
                     "--osmand-port", "--teltonika-port", "--gt06-port", "--stale-after", "--idle-timeout",
                     "--ingest-bind", "--login-timeout", "--max-connections", "--http-timeout", "--http-max-connections",
                     "--graph", "--speed-profile", "--offer-timeout", "--confirmation-timeout", "--zone-dwell",
                     "--stale-grace", "--missing-client-wait", "--fix-retention-days", "--compact-after-hours",
                     "--require-device-secret", "--ingest-allow", "--node-id", "--advertise", "--dispatch-lease-seconds"] {
            #expect(help.contains(flag), "\(flag) missing from serve --help")
        }
        for defaultValue in ["8080", "127.0.0.1", "5023", "5027", "5055", "90", "900", "20000", "10000"] {
            #expect(help.contains(defaultValue))
        }
        // Grouped by concern, in this order, each under its heading.
        let headings = [
            "FILES:", "ZONE FILE:", "STORAGE:", "LISTENERS:", "CONNECTIONS:", "DISPATCH:", "SEVERAL NODES:", "ACCOUNTS AND API LIMITS:", "OUTPUT:",
        ]
        let places = headings.map { heading in help.range(of: "\n\(heading)\n").map { help.distance(from: help.startIndex, to: $0.lowerBound) } }
        #expect(places.allSatisfy { $0 != nil }, "every group has its heading: \(places)")
        #expect(places.compactMap { $0 } == places.compactMap { $0 }.sorted())
        #expect(help.range(of: "LISTENERS:[\\s\\S]*--gt06-port[\\s\\S]*CONNECTIONS:", options: .regularExpression) != nil)
    }

    /// A `$GPRMC` sentence for `seconds` (Unix), with its checksum.
    static func rmc(seconds: Int) -> String {
        let date = Date(timeIntervalSince1970: Double(seconds))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let body = String(format: "GPRMC,%02d%02d%02d,A,4045.5338,N,07359.1078,W,12.5,271.0,%02d%02d%02d,,,A",
                          c.hour!, c.minute!, c.second!, c.day!, c.month!, c.year! % 100)
        let checksum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
        return "$" + body + String(format: "*%02X\r\n", checksum)
    }
}

/// Expected API times, written independently of the code under test.
enum FixTimeText {
    static func iso8601(seconds: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss'.000Z'"
        return formatter.string(from: Date(timeIntervalSince1970: Double(seconds)))
    }
}
