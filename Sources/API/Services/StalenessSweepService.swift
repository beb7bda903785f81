import Fleet
import Foundation
import ServiceClock
import ServiceLifecycle

/// Sweeps the live fleet for taxis that fell silent, once a second, so that
/// their `wentStale` events reach the fleet's consumers within a second of
/// the stale limit.
struct StalenessSweepService: Service {
    let fleet: FleetIndex
    let clock: any ServiceClock

    func run() async throws {
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            fleet.sweepStale(now: clock.now)
            try? await clock.sleep(for: .seconds(1))
        }
    }
}
