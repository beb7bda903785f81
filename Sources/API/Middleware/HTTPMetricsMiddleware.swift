import CoreMetrics
import Hummingbird
import Logging
import Synchronization

/// Counts every HTTP request and times it, per route, method and status
/// (`mytaxi_http_requests_total`, `mytaxi_http_request_duration_seconds`
/// in `/metrics`), and logs a line per request at debug level: what an
/// operator needs to see which endpoint is slow or failing. Outermost, so
/// that it sees the status a client got, problems included. The route is
/// the path as declared (`/v1/taxis/{id}`), never the path asked for, so
/// that the metrics stay a few hundred series however many ids there are.
struct HTTPMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    private let metrics: HTTPRouteMetrics

    /// Metrics made by `factory` (the service's Prometheus registry).
    init(factory: any MetricsFactory) {
        metrics = HTTPRouteMetrics(factory: factory)
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        let status: HTTPResponse.Status
        let response: Response
        do {
            response = try await next(request, context)
            status = response.status
        } catch {
            status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            record(request, context: context, status: status, since: started)
            throw error
        }
        record(request, context: context, status: status, since: started)
        return response
    }

    private func record(_ request: Request, context: Context, status: HTTPResponse.Status, since started: ContinuousClock.Instant) {
        let took = ContinuousClock.now - started
        let route = context.endpointPath ?? "unmatched"
        metrics.record(route: route, method: request.method.rawValue, status: status.code, took: took)
        let milliseconds = Double(took.components.seconds) * 1_000 + Double(took.components.attoseconds) / 1e15
        context.logger.debug(
            "\(request.method) \(request.uri.path) \(status.code) in \((milliseconds * 10).rounded() / 10) ms",
            metadata: ["http.route": "\(route)"])
    }
}

/// The counters and timers of ``HTTPMetricsMiddleware``, made once per
/// (route, method, status) and kept.
final class HTTPRouteMetrics: Sendable {
    private struct Key: Hashable {
        var route: String
        var method: String
        var status: Int
    }

    private let factory: any MetricsFactory
    private let made = Mutex<[Key: (requests: Counter, duration: CoreMetrics.Timer)]>([:])

    init(factory: any MetricsFactory) {
        self.factory = factory
    }

    func record(route: String, method: String, status: Int, took: Duration) {
        let key = Key(route: route, method: method, status: status)
        let (requests, duration) = made.withLock { made in
            if let kept = made[key] { return kept }
            let dimensions = [("route", route), ("method", method), ("status", String(status))]
            let new = (
                Counter(label: "mytaxi_http_requests_total", dimensions: dimensions, factory: factory),
                CoreMetrics.Timer(label: "mytaxi_http_request_duration_seconds", dimensions: dimensions, factory: factory)
            )
            made[key] = new
            return new
        }
        requests.increment()
        duration.recordNanoseconds(took.components.seconds * 1_000_000_000 + took.components.attoseconds / 1_000_000_000)
    }
}
