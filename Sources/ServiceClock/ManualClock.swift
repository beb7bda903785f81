import Foundation
import Synchronization

/// A clock that moves only when told (`advance(by:)`), for tests: sleepers
/// wake as soon as the time they wait for is reached, in deadline order.
public final class ManualClock: ServiceClock {
    private struct Sleeper {
        var deadline: Duration
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var elapsed: Duration = .zero
        var sleepers: [Sleeper] = []
    }

    private let start: Date
    private let state = Mutex(State())

    /// A clock whose wall time starts at `now`.
    public init(now: Date) {
        start = now
    }

    public var now: Date {
        start.addingTimeInterval(Self.seconds(state.withLock { $0.elapsed }))
    }

    public var uptime: Duration { state.withLock { $0.elapsed } }

    public func sleep(for duration: Duration) async throws {
        guard duration > .zero else { return }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            state.withLock { state in
                state.sleepers.append(Sleeper(deadline: state.elapsed + duration, continuation: continuation))
            }
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

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
