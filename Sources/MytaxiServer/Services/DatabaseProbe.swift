import Ingest
import Logging
import PostgresStorage

/// Asks PostgreSQL every second whether it answers, so that `/healthz`
/// says 503 and why as soon as the server goes away, and ok again once it
/// is back, even while no fix or request comes to find out (a commit that
/// failed while it was away no longer counts once it answers); logs each
/// change once.
struct DatabaseProbe: PeriodicWork {
    let pool: PostgresPool
    let pipeline: IngestPipeline
    let logger: Logger
    let interval: Duration = .seconds(1)
    /// Whether the last round found the server away.
    private var wasDown = false

    init(pool: PostgresPool, pipeline: IngestPipeline, logger: Logger) {
        self.pool = pool
        self.pipeline = pipeline
        self.logger = logger
    }

    mutating func round() async {
        let problem = await pool.probe()
        if let problem, !wasDown {
            logger.error("PostgreSQL is unavailable; no fix is acknowledged until it is back: \(problem)")
        } else if problem == nil, wasDown {
            logger.info("PostgreSQL is back; storing and acknowledging fixes again")
        }
        wasDown = problem != nil
        if problem == nil { pipeline.storeAnsweredSinceLastCommit() }
    }
}
