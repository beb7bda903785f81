import Foundation
import Synchronization

/// A clock that moves only when told (`advance(by:)`), for tests: sleepers
/// wake as soon as the time they wait for is reached, in deadline order. A
/// sleeper whose task is cancelled wakes at once with `CancellationError`,
/// as on the system clock, so that a service stops without anyone advancing.
public final class ManualClock: ServiceClock {
    private struct Sleeper {
        var id: Int
        var deadline: Duration
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var elapsed: Duration = .zero
        var sleepers: [Sleeper] = []
        var lastSleeperID = 0
        /// Sleepers cancelled before they were registered.
        var cancelledEarly: Set<Int> = []
    }

    private let start: Date
    private let state = Mutex(State())

    /// A clock whose wall time starts at `now`.
    public init(now: Date) {
        start = now
    }

    public var now: Date {
        start.addingTimeInterval(state.withLock { $0.elapsed }.inSeconds)
    }

    public var uptime: Duration { state.withLock { $0.elapsed } }

    public func sleep(for duration: Duration) async throws {
        guard duration > .zero else { return }
        let id = state.withLock { state in
            state.lastSleeperID += 1
            return state.lastSleeperID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let cancelled = state.withLock { state in
                    if state.cancelledEarly.remove(id) != nil { return true }
                    state.sleepers.append(Sleeper(id: id, deadline: state.elapsed + duration, continuation: continuation))
                    return false
                }
                if cancelled { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
                    // Not registered yet, or woken already: then the entry is never looked at again.
                    state.cancelledEarly.insert(id)
                    return nil
                }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward by `duration` and wakes every sleeper whose time has come.
    public func advance(by duration: Duration) {
        let due = state.withLock { state -> [Sleeper] in
            state.elapsed += duration
            let elapsed = state.elapsed
            let due = state.sleepers.filter { $0.deadline <= elapsed }.sorted { $0.deadline < $1.deadline }
            state.sleepers.removeAll { $0.deadline <= elapsed }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// How many tasks are sleeping on this clock (a test waits for its
    /// subject to go to sleep before advancing).
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }
}
