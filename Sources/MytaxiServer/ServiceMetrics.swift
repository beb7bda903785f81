import DispatchRuntime
import Ingest
import Metrics
import Prometheus

/// The service's metrics, shown by `/metrics`: one Prometheus registry that
/// ingest, the stores' background moves, dispatch, the archive's upkeep and
/// the speed learning all report to.
public final class ServiceMetrics: Sendable {
    /// What `/metrics` reads.
    public let registry: PrometheusCollectorRegistry
    /// Fixes received, refused, committed and moved.
    public let ingest: IngestMetrics
    /// The dispatch engine's commands and state.
    public let dispatch: DispatchMetrics

    /// An empty registry with the ingest and dispatch metrics in it.
    public init() {
        registry = PrometheusCollectorRegistry()
        ingest = IngestMetrics(factory: PrometheusMetricsFactory(registry: registry))
        dispatch = DispatchMetrics(factory: PrometheusMetricsFactory(registry: registry))
    }

    /// Makes the metrics of another part (archive retention, compaction, speed learning) in the same registry.
    public var factory: any MetricsFactory { PrometheusMetricsFactory(registry: registry) }
}
