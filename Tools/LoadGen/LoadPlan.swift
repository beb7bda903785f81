import FixRecords
import Foundation
import Ingest
import Synchronization

/// How much load to send and for how long, shared by all simulated devices.
final class LoadPlan: Sendable {
    let totalFixes: Int
    let duration: Duration
    let ratePerDevice: Double
    let window: Int
    let drain: Duration
    /// Fixes per message (--records-per-packet: Teltonika and line; 1 for the others).
    let fixesPerMessage: Int
    private let sent = Atomic<Int>(0)
    private let start = Mutex<ContinuousClock.Instant?>(nil)

    init(totalFixes: Int, duration: Duration, ratePerDevice: Double, window: Int, drain: Duration, fixesPerMessage: Int = 1) {
        self.fixesPerMessage = fixesPerMessage
        self.totalFixes = totalFixes
        self.duration = duration
        self.ratePerDevice = ratePerDevice
        self.window = window
        self.drain = drain
    }

    /// Marks the start of sending (after every device connected).
    func begin() {
        start.withLock { $0 = ContinuousClock.now }
    }

    /// Claims one fix to send; false once the count or the duration is used up.
    func claim() -> Bool {
        guard let begun = start.withLock({ $0 }), ContinuousClock.now - begun < duration else { return false }
        return sent.add(1, ordering: .relaxed).newValue <= totalFixes
    }

    /// True once the count or the duration is used up.
    var isFinished: Bool {
        guard let begun = start.withLock({ $0 }) else { return false }
        return ContinuousClock.now - begun >= duration || sent.load(ordering: .relaxed) >= totalFixes
    }

    /// Seconds since sending began.
    var elapsed: Duration {
        start.withLock { $0.map { ContinuousClock.now - $0 } } ?? .zero
    }
}

/// What one device (or UDP socket) saw: fixes sent, ACK latencies, and the
/// acknowledged fixes when asked for.
struct DeviceTally: Sendable {
    var sent = 0
    var latenciesNanos: [Int64] = []
    var acked: [(deviceId: String, seq: UInt64, time: Date)] = []
}

/// The outcome of a run, printed as the report.
struct LoadResult: Sendable {
    var tallies: [DeviceTally]
    var sendingTime: Duration
    var totalTime: Duration

    /// Prints the report. With `acknowledgedByArchive` (a protocol without
    /// ACKs, NMEA) the archived count stands in for the acknowledged one, and
    /// a last line says so.
    func printReport(devices: Int, archived: Int?, acknowledgedByArchive: Bool = false) {
        let sent = tallies.reduce(0) { $0 + $1.sent }
        var latencies = tallies.flatMap(\.latenciesNanos)
        latencies.sort()
        let acked = acknowledgedByArchive ? archived ?? 0 : latencies.count
        func percentile(_ p: Double) -> String {
            guard !latencies.isEmpty else { return "-" }
            let index = min(latencies.count - 1, Int((Double(latencies.count - 1) * p).rounded()))
            return String(format: "%.2f ms", Double(latencies[index]) / 1e6)
        }
        let seconds = Double(sendingTime.components.seconds) + Double(sendingTime.components.attoseconds) / 1e18
        print("devices:            \(devices)")
        print("fixes sent:         \(sent)")
        print("fixes acknowledged: \(acked)")
        print("fixes archived:     \(archived.map(String.init) ?? "unknown (no --metrics-url answer)")")
        print("lost (sent - acked):\(sent - acked)")
        print(String(format: "throughput:         %.0f acknowledged fixes/s over %.2f s", Double(acked) / max(seconds, 1e-9), seconds))
        print("ACK latency:        p50 \(percentile(0.5)), p99 \(percentile(0.99)), max \(percentile(1))")
        if acknowledgedByArchive {
            print("note:               the protocol has no ACK: acknowledged = archived (from /metrics), no latency")
        }
    }

    func writeAcked(path: String) throws {
        var text = "device_id,seq,time\n"
        for tally in tallies {
            for ack in tally.acked { text += "\(ack.deviceId),\(ack.seq),\(FixTime.iso8601(ack.time))\n" }
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }
}
