import ServiceLifecycle
import Synchronization

/// A one-time signal between services of one group: a service waits until
/// another has started (the HTTP API until every ingest listener is bound,
/// so that the ports are known and reported before the API answers).
/// Waiting ends early when the waiting task is cancelled (the group stops
/// because the other service failed).
final class StartSignal: Sendable {
    private struct State {
        var fired = false
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter = 0
    }

    private let state = Mutex(State())

    /// Ends every wait, the present ones and the later ones.
    func fire() {
        let waiters = state.withLock { state in
            state.fired = true
            defer { state.waiters.removeAll() }
            return state.waiters.values
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once ``fire()`` was called, or once the task is cancelled.
    func wait() async {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state in
                    guard !state.fired, !Task.isCancelled else { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume()
        }
    }
}

/// A service that starts only once `signal` fired, so that a group can
/// order the start of services that ServiceLifecycle would start together;
/// it does not start at all when the group stops first.
struct StartingAfter<Base: Service>: Service {
    let signal: StartSignal
    let base: Base

    func run() async throws {
        try? await cancelWhenGracefulShutdown { [signal] in await signal.wait() }
        guard !Task.isCancelled, !Task.isShuttingDownGracefully else { return }
        try await base.run()
    }
}
