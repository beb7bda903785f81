import Logging
import PostgresStorage
import ServiceClock
import ServiceLifecycle

/// Asks PostgreSQL every second whether it answers, so that `/healthz`
/// says 503 and why as soon as the server goes away, and ok again once it
/// is back, even while no fix or request comes to find out; logs each
/// change once.
struct DatabaseProbeService: Service {
    let pool: PostgresPool
    let clock: any ServiceClock
    let logger: Logger

    func run() async throws {
        var wasDown = false
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            let problem = await pool.probe()
            if let problem, !wasDown {
                logger.error("PostgreSQL is unavailable; no fix is acknowledged until it is back: \(problem)")
            } else if problem == nil, wasDown {
                logger.info("PostgreSQL is back; storing and acknowledging fixes again")
            }
            wasDown = problem != nil
            try? await clock.sleep(for: .seconds(1))
        }
    }
}
