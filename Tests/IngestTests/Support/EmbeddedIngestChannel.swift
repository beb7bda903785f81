import CoreMetrics
import Fleet
import Metrics
import NIOCore
import NIOEmbedded
@testable import Ingest

/// An `EmbeddedChannel` carrying one ingest handler over a pipeline whose
/// sink the test completes (device D1 is taxi TX1 unless `devices` says
/// otherwise): the listeners' rules run step by step on the test's thread,
/// without sockets or sleeps.
enum EmbeddedIngestChannel {
    /// The channel with the handler `makeHandler` builds from the pipeline and its batcher.
    static func make(
        sink: HeldSink, devices: String = "device_id,taxi_id\nD1,TX1\n",
        metrics: any MetricsFactory = NOOPMetricsHandler.instance, secretPolicy: DeviceSecretPolicy = DeviceSecretPolicy(),
        makeHandler: (IngestPipeline, LoopSubmissionBatcher) -> any ChannelHandler
    ) throws -> EmbeddedChannel {
        let loop = EmbeddedEventLoop()
        let channel = EmbeddedChannel(loop: loop)
        let pipeline = IngestPipeline(
            devices: try DeviceRegistry(csv: devices), zones: nil, validator: FixValidator(),
            sink: sink, metrics: IngestMetrics(factory: metrics), secretPolicy: secretPolicy)
        try channel.pipeline.syncOperations.addHandler(
            makeHandler(pipeline, LoopSubmissionBatcher(eventLoop: loop, pipeline: pipeline)))
        return channel
    }
}
