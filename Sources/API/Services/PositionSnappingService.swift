import DispatchService
import ServiceClock
import ServiceLifecycle

/// Runs the ``PositionSnapper`` every ``interval``, so that a taxi's new
/// position is snapped to the roads within a fraction of a second of its
/// fix, in the background: ingest does not wait for it, and the
/// dispatcher's queries find their taxis already snapped.
struct PositionSnappingService: Service {
    let snapper: PositionSnapper
    let clock: any ServiceClock
    /// The pause between two steps.
    var interval: Duration = .milliseconds(200)

    func run() async throws {
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            snapper.step()
            try? await clock.sleep(for: interval)
        }
    }
}
