import CoreMetrics
import FixRecords
import Fleet
import Foundation
import Metrics
import NIOCore
import NIOPosix
@testable import Ingest

/// The ingest listeners on loopback with ports picked by the OS, feeding a
/// pipeline with devices D1 (TX1) and D2 (TX2) (unless `devices` says
/// otherwise) and the given sink: the server side of a listener test,
/// without a process or an archive.
struct ListenerHarness {
    let pipeline: IngestPipeline
    let listeners: IngestListeners
    let group: MultiThreadedEventLoopGroup

    init(
        sink: any FixSink, maxQueuedFixes: Int = IngestPipeline.defaultMaxQueuedFixes, threads: Int = 1,
        limits: IngestConnectionLimits = IngestConnectionLimits(), devices: String = "device_id,taxi_id\nD1,TX1\nD2,TX2\n",
        metrics: any MetricsFactory = NOOPMetricsHandler.instance, secretPolicy: DeviceSecretPolicy = DeviceSecretPolicy(),
        allowList: IngestAllowList = IngestAllowList()
    ) throws {
        pipeline = IngestPipeline(
            devices: try DeviceRegistry(csv: devices), zones: nil, validator: FixValidator(),
            sink: sink, metrics: IngestMetrics(factory: metrics), maxQueuedFixes: maxQueuedFixes, secretPolicy: secretPolicy)
        group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
        listeners = IngestListeners(pipeline: pipeline, group: group, limits: limits, allowList: allowList)
    }

    /// The line protocol over TCP; its port.
    func lineTCP() async throws -> Int {
        try await listeners.listenTCP(LineProtocolDecoder.self, host: "127.0.0.1", port: 0)
    }

    /// GT06 over TCP; its port.
    func gt06TCP() async throws -> Int {
        try await listeners.listenTCP(GT06Decoder.self, host: "127.0.0.1", port: 0)
    }

    /// The line protocol over UDP; its port.
    func lineUDP() async throws -> Int {
        try await listeners.listenUDP(LineProtocolDecoder.self, host: "127.0.0.1", port: 0)
    }

    /// Closes the listeners and the event loops.
    func stop() async throws {
        await listeners.close()
        try await group.shutdownGracefully()
    }

    /// Six days ago: fix times count up from here, one second per sequence
    /// number, so that every line of a flood is a distinct fix within the
    /// validator's seven days.
    static let firstFixTime = Int(Date().timeIntervalSince1970) - 6 * 24 * 3600

    /// A line-protocol fix line of `device` with sequence number `seq`, at a
    /// point in Monaco moved a metre per sequence number.
    static func line(device: String = "D1", seq: Int) -> String {
        let time = firstFixTime + seq % 400_000
        let latitude = 43.73 + Double(seq % 1000) * 0.00001
        return "MT1,\(device),\(seq),\(time),\(latitude),7.42,20,90,A\n"
    }
}
