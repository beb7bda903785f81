import FixRecords
import Ingest
import NIOCore
import Synchronization

/// What `/healthz` says is wrong now: a listener turned on but not
/// listening (one turned off on purpose does not count), commits or the
/// stores' background moves failing, a stop under way (draining); in
/// words, the errors themselves being logged.
final class ServiceHealth: Sendable {
    private let configuration: ServiceConfiguration
    private let pipeline: IngestPipeline
    private let storeProblem: @Sendable () -> String?
    private let running = Mutex<RunningListeners>(RunningListeners())
    private let draining = Atomic<Bool>(false)

    /// The listeners of a running service group (none before it runs).
    private struct RunningListeners {
        var ingest: IngestListeners?
        var osmandChannel: (any Channel)?
    }

    init(configuration: ServiceConfiguration, pipeline: IngestPipeline, storeProblem: @escaping @Sendable () -> String?) {
        self.configuration = configuration
        self.pipeline = pipeline
        self.storeProblem = storeProblem
    }

    /// The terminals' listeners of the running group.
    func watch(_ listeners: IngestListeners) {
        running.withLock { $0.ingest = listeners }
    }

    /// The OsmAnd listener's channel, once it serves.
    func watchOsmAnd(_ channel: any Channel) {
        running.withLock { $0.osmandChannel = channel }
    }

    /// From now on the service says it is stopping: a balancer moves off it
    /// while it still serves (``DrainService``).
    func startDraining() {
        draining.store(true, ordering: .relaxed)
    }

    /// Every problem, in words; empty when all is well.
    func problems() -> [String] {
        var problems: [String] = []
        if draining.load(ordering: .relaxed) { problems.append("draining: the service is stopping; use another node") }
        let (ingestUp, osmandUp) = running.withLock { running in
            (running.ingest?.allListening ?? false, running.osmandChannel?.isActive ?? false)
        }
        let ingestConfigured = configuration.tcpPorts.keys.contains { $0 != .osmand } || !configuration.udpPorts.isEmpty
        if ingestConfigured, !ingestUp { problems.append("the ingest listeners are not all up") }
        if configuration.tcpPorts[.osmand] != nil, !osmandUp { problems.append("the OsmAnd listener is not up") }
        let commits = pipeline.commitFailure.map { _ in "the archive cannot store fixes (the service's log says why)" }
        return problems + [commits, storeProblem()].compactMap { $0 }
    }
}
