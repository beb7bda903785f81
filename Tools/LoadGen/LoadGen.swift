import ArgumentParser
import Foundation
import NIOCore
import NIOPosix

/// `mytaxi-loadgen`: simulated terminals over loopback, for benchmarks and
/// durability tests. N devices speak the line protocol over TCP or UDP,
/// synthetic (a random walk in a box) or replaying a CSV trace; the run is
/// bounded by a fix count and a duration. Prints fixes/s, ACK latency and
/// fixes sent vs acknowledged vs archived (from the server's /metrics).
@main
struct LoadGen: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mytaxi-loadgen",
        abstract: "Load generator and trace replayer for the mytaxi ingest server (loopback only).")

    @Option(help: "Server address; loopback only.")
    var host = "127.0.0.1"

    @Option(help: "Ingest port of the line protocol.")
    var port = 5100

    @Option(help: "tcp or udp.")
    var transport: Transport = .tcp

    @Option(help: "Simulated devices (one TCP connection each).")
    var devices = 100

    @Option(help: "Stop after sending this many fixes in all.")
    var count = 100_000

    @Option(help: "Stop sending after this many seconds.")
    var duration: Double = 60

    @Option(help: "Fixes per second per device; 0 sends as fast as ACKs allow (--window in flight).")
    var rate: Double = 0

    @Option(help: "Unacknowledged fixes a device may have in flight when --rate is 0.")
    var window = 32

    @Option(help: "Replay a CSV trace: device_id,time_iso8601,lat,lon,speed_kmh,heading (header optional).")
    var replay: String?

    @Option(name: .customLong("device-prefix"), help: "Synthetic device ids are PREFIX000001...; taxi ids TX000001...")
    var devicePrefix = "LG"

    @Option(name: .customLong("write-devices"), help: "Write the devices file (device_id,taxi_id) for the synthetic devices and exit.")
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

    func validate() throws {
        guard ["127.0.0.1", "localhost", "::1"].contains(host) else {
            throw ValidationError("--host must be a loopback address (127.0.0.1, localhost or ::1): the load generator never leaves this machine")
        }
        guard devices > 0, count > 0, duration > 0, window > 0, rate >= 0 else {
            throw ValidationError("--devices, --count, --duration and --window must be positive, --rate non-negative")
        }
        guard Box(text: bbox) != nil else { throw ValidationError("--bbox must be minLon,minLat,maxLon,maxLat") }
    }

    func run() async throws {
        let box = Box(text: bbox)!
        let ids = (1...devices).map { String(format: "%@%06d", devicePrefix, $0) }
        if let path = writeDevices {
            let lines = ids.enumerated().map { "\($1),TX\(String(format: "%06d", $0 + 1))" }
            try ("device_id,taxi_id\n" + lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            print("wrote \(ids.count) devices to \(path)")
            return
        }
        let sources: [FixSource]
        if let replay {
            sources = try TraceReplay.load(path: replay).map { FixSource.trace($0) }
        } else {
            sources = ids.enumerated().map { FixSource.synthetic(SyntheticDevice(id: $1, box: box, seed: UInt64($0 + 1))) }
        }
        let plan = LoadPlan(
            totalFixes: count, duration: .milliseconds(Int64(duration * 1000)), ratePerDevice: rate, window: window,
            drain: .milliseconds(Int64(drainSeconds * 1000)))
        let archivedBefore = MetricsScrape.archivedFixes(url: metricsURL)
        let group = MultiThreadedEventLoopGroup.singleton
        let result: LoadResult
        switch transport {
        case .tcp:
            result = try await TCPLoad(group: group, host: host, port: port, plan: plan).run(sources: sources)
        case .udp:
            result = try await UDPLoad(group: group, host: host, port: port, plan: plan).run(sources: sources)
        }
        try await Task.sleep(for: .milliseconds(300))
        let archivedAfter = MetricsScrape.archivedFixes(url: metricsURL)
        result.printReport(devices: sources.count, archived: archivedAfter.flatMap { after in archivedBefore.map { after - $0 } })
        if let ackedOut {
            try result.writeAcked(path: ackedOut)
        }
    }
}
