import Foundation
import Synchronization

/// How many child processes of one kind the tests run at once: the
/// `mytaxi serve` processes (``services``) and the commands run to their
/// end (``commands``), each at most as many as the machine has cores.
///
/// The tests await their child processes instead of blocking a thread of
/// the cooperative pool, so nothing else bounds how many run at once: a
/// dozen debug-built services starting together on two cores took more
/// than a minute each to report their listeners. A test waits for a slot
/// before it starts a process and gives it back when the process has ended.
/// The two kinds have slots of their own, so a test holding a service can
/// always run a command against it.
final class ChildProcessSlots: Sendable {
    /// The `mytaxi serve` processes (``ServiceProcess``).
    static let services = ChildProcessSlots(count: max(2, ProcessInfo.processInfo.activeProcessorCount))
    /// Commands run to their end (``CommandRunner``, the load generator, fuzz replays).
    static let commands = ChildProcessSlots(count: max(2, ProcessInfo.processInfo.activeProcessorCount))

    private struct State {
        var free: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Mutex<State>

    init(count: Int) {
        state = Mutex(State(free: count))
    }

    /// Waits, holding no thread, until a slot is free, and takes it.
    func take() async {
        await withCheckedContinuation { continuation in
            let granted = state.withLock { state in
                guard state.free > 0 else {
                    state.waiting.append(continuation)
                    return false
                }
                state.free -= 1
                return true
            }
            if granted { continuation.resume() }
        }
    }

    /// Gives a slot back, to the longest waiting test if there is one.
    func giveBack() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }

    /// Runs `work` in a slot.
    func run<Value>(_ work: () async throws -> Value) async rethrows -> Value {
        await take()
        defer { giveBack() }
        return try await work()
    }
}
