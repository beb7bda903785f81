import Hummingbird
import Prometheus

/// `/healthz` and `/metrics`: what an operator's monitoring reads.
struct HealthController: Sendable {
    /// What is wrong with the service now; empty when all is well.
    let healthProblems: @Sendable () -> [String]
    let metricsRegistry: PrometheusCollectorRegistry

    /// `/healthz`, and `/metrics` unless `withMetrics` is false (served on a listener of its own).
    func addRoutes(to router: Router<APIRequestContext>, withMetrics: Bool = true) {
        router.get("/healthz") { _, _ -> Response in
            let problems = healthProblems()
            guard problems.isEmpty else { throw Problem.unavailable(problems.joined(separator: "; ")) }
            return Response(status: .ok, headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: "ok\n")))
        }
        if withMetrics { addMetricsRoute(to: router) }
    }

    /// `/metrics` alone.
    func addMetricsRoute(to router: Router<APIRequestContext>) {
        router.get("/metrics") { _, _ -> Response in
            var text: [UInt8] = []
            metricsRegistry.emit(into: &text)
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                body: .init(byteBuffer: ByteBuffer(bytes: text)))
        }
    }
}
