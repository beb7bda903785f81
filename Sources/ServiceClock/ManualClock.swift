import Dispatch
import Foundation
import Synchronization

/// A clock that moves only when told (`advance(by:)`), for tests: sleepers
/// wake as soon as the time they wait for is reached, in deadline order. A
/// sleeper whose task is cancelled wakes at once with `CancellationError`,
/// as on the system clock, so that a service stops without anyone advancing.
public final class ManualClock: ServiceClock {
    /// What a sleeper is woken by: a task's continuation, or a semaphore a
    /// thread is blocked on (``blockThread(for:interruptedBy:)``).
    private enum Waker {
        case task(CheckedContinuation<Void, any Error>)
        case thread(DispatchSemaphore)

        func wake() {
            switch self {
            case .task(let continuation): continuation.resume()
            case .thread(let semaphore): semaphore.signal()
            }
        }
    }

    private struct Sleeper {
        var id: Int
        var deadline: Duration
        var waker: Waker
    }

    private struct State {
        var elapsed: Duration = .zero
        var sleepers: [Sleeper] = []
        var lastSleeperID = 0
        /// Sleepers cancelled before they were registered.
        var cancelledEarly: Set<Int> = []

        mutating func nextSleeperID() -> Int {
            lastSleeperID += 1
            return lastSleeperID
        }
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
        let id = state.withLock { state in state.nextSleeperID() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let cancelled = state.withLock { state in
                    if state.cancelledEarly.remove(id) != nil { return true }
                    state.sleepers.append(Sleeper(id: id, deadline: state.elapsed + duration, waker: .task(continuation)))
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
            if case .task(let continuation) = sleeper?.waker { continuation.resume(throwing: CancellationError()) }
        }
    }

    public func blockThread(for duration: Duration, interruptedBy interruption: DispatchSemaphore) {
        guard duration > .zero else { return }
        let id = state.withLock { state in
            let id = state.nextSleeperID()
            state.sleepers.append(Sleeper(id: id, deadline: state.elapsed + duration, waker: .thread(interruption)))
            return id
        }
        interruption.wait()
        state.withLock { state in state.sleepers.removeAll { $0.id == id } }
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
        for sleeper in due { sleeper.waker.wake() }
    }

    /// How many tasks are sleeping on this clock (a test waits for its
    /// subject to go to sleep before advancing).
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }
}
