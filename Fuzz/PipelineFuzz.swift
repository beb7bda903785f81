import FixRecords
import Fleet
import GeoKit
import Foundation
import Ingest
import Metrics
import ServiceClock

/// The line protocol's decoder, the device registry, the validator and the
/// pipeline together, as a line-protocol connection feeds them: every
/// accepted fix is committed at once (the validator then remembers it), so
/// that duplicates, jumps and out-of-order fixes are reached too.
enum PipelineFuzz {
    /// Devices the seeds and the fuzzer's mutations name.
    static let devices = try! DeviceRegistry(csv: "device_id,taxi_id\nD1,TX1\nD2,TX2\nTAXI-42,TX42\n")

    /// A sink that commits at once.
    struct ImmediateSink: FixSink {
        func submit(_ fixes: [AcceptedFix], completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
            for fix in fixes {
                guard fix.coordinate.longitude.isFinite, fix.coordinate.latitude.isFinite, fix.speedKmh.isFinite,
                    fix.heading.isFinite, abs(fix.time.timeIntervalSince1970) < FuzzOracle.largestSeconds
                else { fatalError("the pipeline accepted a fix the archive cannot store: \(fix)") }
            }
            completion(.success(()))
        }
    }

    static func run(_ bytes: UnsafeRawBufferPointer) {
        let pipeline = IngestPipeline(
            devices: devices, zones: nil, validator: FixValidator(), sink: ImmediateSink(),
            metrics: IngestMetrics(factory: NOOPMetricsHandler.instance),
            clock: ManualClock(now: Date(timeIntervalSince1970: 1_795_420_800)))
        FuzzOracle.forEachFrame(in: bytes, decoder: LineProtocolDecoder()) { frame in
            pipeline.submit(pipeline.accept(frame.fixes, via: .line)) { _ in }
        }
    }
}
