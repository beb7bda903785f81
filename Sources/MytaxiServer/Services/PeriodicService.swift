import ServiceClock
import ServiceLifecycle

/// One round of background upkeep that comes back on a timer: sweeping
/// stale taxis, snapping moved ones, probing the database, forgetting
/// expired tokens, keeping the archive within its retention.
protocol PeriodicWork: Sendable {
    /// The pause after each round.
    var interval: Duration { get }

    /// Does one round. It may keep what it saw for the next one (the
    /// database's last state, how many rounds have passed).
    mutating func round() async
}

/// Runs a ``PeriodicWork`` round after round, ``PeriodicWork/interval``
/// apart on the service clock, so that a test moves a manual clock
/// instead of waiting; a graceful shutdown ends the pause at once.
struct PeriodicService<Work: PeriodicWork>: Service {
    let work: Work
    let clock: any ServiceClock

    /// Runs `work` on `clock`.
    init(_ work: Work, clock: any ServiceClock) {
        self.work = work
        self.clock = clock
    }

    func run() async throws {
        try? await cancelWhenGracefulShutdown { [work, clock] in
            var work = work
            while !Task.isCancelled {
                await work.round()
                try await clock.sleep(for: work.interval)
            }
        }
    }
}
