import Hummingbird
import Prometheus

/// `/healthz` and `/metrics`: what an operator's monitoring reads.
struct HealthController: Sendable {
    /// What is wrong with the service now; empty when all is well.
    let healthProblems: @Sendable () -> [String]
    let metricsRegistry: PrometheusCollectorRegistry

    func addRoutes(to router: Router<APIRequestContext>) {
        router.get("/healthz") { _, _ -> Response in
            let problems = healthProblems()
            guard problems.isEmpty else { throw Problem.unavailable(problems.joined(separator: "; ")) }
            return Response(status: .ok, headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: "ok\n")))
        }
        router.get("/metrics") { _, _ -> Response in
            var text: [UInt8] = []
            metricsRegistry.emit(into: &text)
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                body: .init(byteBuffer: ByteBuffer(bytes: text)))
        }
    }
}
