import Fleet
import ServiceClock

/// Sweeps the live fleet for taxis that fell silent, once a second, so that
/// their `wentStale` events reach the fleet's consumers within a second of
/// the stale limit.
struct StalenessSweep: PeriodicWork {
    let fleet: FleetIndex
    let clock: any ServiceClock
    let interval: Duration = .seconds(1)

    func round() async {
        fleet.sweepStale(now: clock.now)
    }
}
