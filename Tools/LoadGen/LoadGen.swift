import ArgumentParser
import Foundation
import NIOCore
import NIOPosix

/// `mytaxi-loadgen`: simulated terminals over loopback, for benchmarks and
/// durability tests. N devices speak a chosen protocol (line, NMEA, GT06,
/// Teltonika) over TCP or UDP, synthetic (a random walk in a box) or
/// replaying a CSV trace; the run is bounded by a fix count and a duration.
/// Prints fixes/s, ACK latency and fixes sent vs acknowledged vs archived
/// (from the server's /metrics).
@main
struct LoadGen: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mytaxi-loadgen",
        abstract: "Load generator and trace replayer for the mytaxi ingest server (loopback only).",
        discussion: """
            Protocols: line (TCP, UDP); nmea (TCP: an identifier line, then $GPRMC sentences; no ACK, so \
            acknowledged = archived from --metrics-url); gt06 (TCP: login, then 0x12 locations, ACKs matched by \
            serial); teltonika (Codec 8: TCP with the IMEI handshake, or UDP datagrams). gt06 and teltonika \
            devices are 15-digit IMEIs; write the devices file with the same --protocol.
            """)

    @Option(help: "Server address; loopback only.")
    var host = "127.0.0.1"

    @Option(help: "Ingest port. (default: the protocol's: line 5100, nmea 5005, teltonika 5027, gt06 5023)")
    var port: Int?

    @Option(help: "tcp or udp.")
    var transport: Transport = .tcp

    @Option(name: .customLong("protocol"), help: "Protocol the devices speak (udp: line and teltonika only).")
    var wireProtocol: LoadProtocol = .line

    @Option(name: .customLong("records-per-packet"), help: "Fixes per message (1...255): Teltonika AVL records per packet; line protocol, fix lines per TCP write or per datagram (at most 20, so a datagram stays under 2 KB): a terminal sending what it buffered.")
    var recordsPerPacket = 1

    @Option(help: "Simulated devices (one TCP connection each).")
    var devices = 100

    @Option(help: "Stop after sending this many fixes in all.")
    var count = 100_000

    @Option(help: "Stop sending after this many seconds.")
    var duration: Double = 60

    @Option(help: "Fixes per second per device, offered whatever the ACKs do (open loop); 0 sends as fast as ACKs allow (--window in flight).")
    var rate: Double = 0

    @Option(help: "Unacknowledged fixes a device may have in flight when --rate is 0.")
    var window = 32

    @Option(help: "Replay a CSV trace: device_id,time_iso8601,lat,lon,speed_kmh,heading (header optional).")
    var replay: String?

    @Option(name: .customLong("device-prefix"), help: "Synthetic device ids are PREFIX000001... (gt06, teltonika: IMEIs, 35, the 12-digit number, a Luhn digit); taxi ids TX000001...")
    var devicePrefix = "LG"

    @Option(name: .customLong("write-devices"), help: "Write the devices file (device_id,taxi_id) for the synthetic devices of --protocol and exit.")
    var writeDevices: String?

    @Option(help: "Box of the random walk: minLon,minLat,maxLon,maxLat (default: Monaco).")
    var bbox = "7.409,43.725,7.439,43.751"

    @Option(name: .customLong("metrics-url"), help: "The server's /metrics, to read how many fixes it archived.")
    var metricsURL = "http://127.0.0.1:8080/metrics"

    @Option(name: .customLong("acked-out"), help: "Write every acknowledged fix (device_id,seq,time) to this CSV file.")
    var ackedOut: String?

    @Option(name: .customLong("drain-seconds"), help: "How long to wait for outstanding ACKs after sending stops.")
    var drainSeconds: Double = 5

    enum Transport: String, ExpressibleByArgument { case tcp, udp }

    /// Without ACKs nothing tells when the server is done: polls /metrics
    /// until `sent` fixes are archived or --drain-seconds pass, and returns
    /// the archived count (nil when /metrics does not answer).
    func awaitArchive(of sent: Int, before: Int?, last: Int?) async throws -> Int? {
        guard let before else { return nil }
        var archived = last
        let start = ContinuousClock.now
        while (archived ?? 0) < sent, ContinuousClock.now - start < .milliseconds(Int64(drainSeconds * 1000)) {
            try await Task.sleep(for: .milliseconds(100))
            archived = MetricsScrape.archivedFixes(url: metricsURL).map { $0 - before } ?? archived
        }
        return archived
    }

    /// True for the 15 digits of an IMEI.
    static func isIMEI(_ id: String) -> Bool {
        id.utf8.count == 15 && id.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    func validate() throws {
        guard ["127.0.0.1", "localhost", "::1"].contains(host) else {
            throw ValidationError("--host must be a loopback address (127.0.0.1, localhost or ::1): the load generator never leaves this machine")
        }
        guard devices > 0, count > 0, duration > 0, window > 0, rate >= 0 else {
            throw ValidationError("--devices, --count, --duration and --window must be positive, --rate non-negative")
        }
        guard Box(text: bbox) != nil else { throw ValidationError("--bbox must be minLon,minLat,maxLon,maxLat") }
        guard transport == .tcp || wireProtocol.hasUDP else {
            throw ValidationError("--protocol \(wireProtocol.rawValue) runs over TCP only (udp: line and teltonika)")
        }
        let batches = wireProtocol == .teltonika || wireProtocol == .line
        guard (1...255).contains(recordsPerPacket), recordsPerPacket == 1 || batches else {
            throw ValidationError("--records-per-packet must be 1...255, and above 1 only with --protocol teltonika or line")
        }
        guard wireProtocol != .line || transport == .tcp || recordsPerPacket <= 20 else {
            throw ValidationError("--records-per-packet must be at most 20 for line over UDP: the server reads datagrams of up to 2 KB")
        }
    }

    func run() async throws {
        let box = Box(text: bbox)!
        let ids = (1...devices).map { wireProtocol.usesIMEI ? LoadProtocol.imei($0) : String(format: "%@%06d", devicePrefix, $0) }
        if let path = writeDevices {
            let lines = ids.enumerated().map { "\($1),TX\(String(format: "%06d", $0 + 1))" }
            try ("device_id,taxi_id\n" + lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            print("wrote \(ids.count) devices to \(path)")
            return
        }
        let sources: [FixSource]
        if let replay {
            sources = try TraceReplay.load(path: replay).map { FixSource.trace($0) }
            if wireProtocol.usesIMEI, let bad = sources.first(where: { !Self.isIMEI($0.deviceId) }) {
                throw LoadGenError("\(replay): device id \(bad.deviceId) is not a 15-digit IMEI, which --protocol \(wireProtocol.rawValue) needs")
            }
        } else {
            let wholeSeconds = wireProtocol.hasWholeSecondTimes
            let lag: Int64 = wholeSeconds && (rate == 0 || rate > 1) ? 86_400_000 : 0
            sources = ids.enumerated().map {
                FixSource.synthetic(SyntheticDevice(
                    id: $1, box: box, seed: UInt64($0 + 1), stepMillis: wholeSeconds ? 1000 : 1, lagMillis: lag))
            }
        }
        let plan = LoadPlan(
            totalFixes: count, duration: .milliseconds(Int64(duration * 1000)), ratePerDevice: rate, window: window,
            drain: .milliseconds(Int64(drainSeconds * 1000)), fixesPerMessage: recordsPerPacket)
        let ingestPort = port ?? wireProtocol.defaultPort
        let archivedBefore = MetricsScrape.archivedFixes(url: metricsURL)
        let group = MultiThreadedEventLoopGroup.singleton
        let result: LoadResult
        switch transport {
        case .tcp:
            result = try await TCPLoad(group: group, host: host, port: ingestPort, plan: plan, wireProtocol: wireProtocol)
                .run(sources: sources)
        case .udp:
            result = try await UDPLoad(group: group, host: host, port: ingestPort, plan: plan, codec: wireProtocol.datagramCodec!)
                .run(sources: sources)
        }
        try await Task.sleep(for: .milliseconds(300))
        var archived = MetricsScrape.archivedFixes(url: metricsURL).flatMap { after in archivedBefore.map { after - $0 } }
        if !wireProtocol.acknowledges {
            archived = try await awaitArchive(of: result.tallies.reduce(0) { $0 + $1.sent }, before: archivedBefore, last: archived)
        }
        result.printReport(devices: sources.count, archived: archived, acknowledgedByArchive: !wireProtocol.acknowledges)
        if let ackedOut {
            try result.writeAcked(path: ackedOut)
        }
    }
}

extension LoadProtocol: ExpressibleByArgument {}
