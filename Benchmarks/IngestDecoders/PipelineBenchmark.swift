import Benchmark
import FixRecords
import Fleet
import Foundation
import Ingest
import Prometheus
import Zones

/// Everything a fix goes through between its decoder and the archive, on
/// one core: device registry, validation against the device's track, zone
/// lookup and the Prometheus counters, for 10,000 devices reporting in turn
/// (each fix 30 s after the device's previous one, 20 m further).
func pipelineBenchmark() {
    let devices = 10_000
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    let zones = try! ZoneFileLoader.load(path: root.appendingPathComponent("Zones/manhattan/zones.geojson").path).zoneSet
    let ids = (1...devices).map { String(format: "LG%06d", $0) }
    let registry = try! DeviceRegistry(csv: "device_id,taxi_id\n" + ids.map { "\($0),TX-\($0)" }.joined(separator: "\n"))
    let feed = PipelineFeed(
        pipeline: IngestPipeline(
            devices: registry, zones: ActiveZones(try! ZoneIndex(zoneSet: zones)), validator: FixValidator(), sink: DiscardingSink(),
            metrics: IngestMetrics(factory: PrometheusMetricsFactory(registry: PrometheusCollectorRegistry()))),
        ids: ids)
    Benchmark("Pipeline: registry + validation + zone + counters, 10k devices") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(feed.acceptNext())
        }
    }
}

/// The next fix of each device in turn, kept across iterations so that no fix repeats.
private final class PipelineFeed: @unchecked Sendable {
    let pipeline: IngestPipeline
    let ids: [String]
    let start = Date().addingTimeInterval(-86_400)
    var round = 0
    var device = 0

    init(pipeline: IngestPipeline, ids: [String]) {
        self.pipeline = pipeline
        self.ids = ids
    }

    func acceptNext() -> [AcceptedFix] {
        let step = Double(round)
        let fix = DeviceFix(
            deviceId: ids[device], time: start.addingTimeInterval(30 * step),
            latitude: 40.75 + 0.0002 * step + 1e-6 * Double(device), longitude: -73.99 + 1e-6 * Double(device),
            speedKmh: 30, course: 0, valid: true)
        device += 1
        if device == ids.count { (device, round) = (0, round + 1) }
        let accepted = pipeline.accept([fix], via: .line)
        precondition(accepted.count == 1, "the benchmark fix of \(fix.deviceId) was rejected: it would time the wrong path")
        return accepted
    }
}

/// A sink that drops what it is given: the benchmark stops at the archive's door.
private final class DiscardingSink: FixSink {
    func submit(_ fixes: [AcceptedFix], completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        completion(.success(()))
    }
}
