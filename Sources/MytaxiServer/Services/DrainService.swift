import Logging
import ServiceClock
import ServiceLifecycle

/// The first step of a stop (SIGTERM, SIGINT): for `--drain-seconds`,
/// `/healthz` answers 503 ("draining") while the API, the push sockets and
/// the terminals' listeners all still serve, so that a balancer checking
/// `/healthz` sends new clients to other nodes before this one closes
/// anything; then the group stops the rest in order. Last in the group, so
/// that it is the first to stop.
struct DrainService: Service {
    let duration: Duration
    let health: ServiceHealth
    let clock: any ServiceClock
    let logger: Logger

    func run() async throws {
        do {
            try await gracefulShutdown()
        } catch {
            return  // the group was cancelled: no drain
        }
        health.startDraining()
        logger.info("draining: /healthz answers 503 for \(duration) before the service stops")
        try? await clock.sleep(for: duration)
    }
}
