import DispatchCore
import DispatchRuntime
import Fleet
import ServiceClock
import ServiceLifecycle

/// The dispatcher as a service (SPEC D2): it passes the live fleet's zone
/// changes and silences to the engine as they come, fires the engine's
/// timers, and at shutdown writes what is queued in the dispatch log.
///
/// The ingest path never waits for it: the fleet index publishes its events
/// on a buffered stream, which this service drains.
struct DispatcherService: Service {
    let dispatcher: Dispatcher
    let fleet: FleetIndex
    let clock: any ServiceClock
    let metrics: DispatchMetrics

    func run() async throws {
        await withDiscardingTaskGroup { group in
            group.addTask { await passFleetEvents() }
            group.addTask { await dispatcher.runTimers() }
            group.addTask { await showState() }
            try? await gracefulShutdown()
            group.cancelAll()
        }
        await dispatcher.finishSnapshots()
        dispatcher.close()
    }

    /// Shows the engine's state in `/metrics` once a second.
    private func showState() async {
        while !Task.isCancelled {
            metrics.show(await dispatcher.snapshot)
            do { try await clock.sleep(for: .seconds(1)) } catch { return }
        }
    }

    /// Hands every fleet event to the dispatcher; while it reloads after a
    /// failed write, the event waits and is handed again, so none is lost.
    private func passFleetEvents() async {
        for await event in fleet.events {
            while !Task.isCancelled {
                do {
                    try await dispatcher.record(.fleet(event))
                    break
                } catch .storage {
                    try? await clock.sleep(for: .milliseconds(100))
                } catch {
                    break
                }
            }
        }
    }
}
