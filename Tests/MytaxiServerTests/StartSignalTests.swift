import Synchronization
import TestSupport
import Testing
@testable import MytaxiServer

/// The signal that orders the start of services: a wait ends when the
/// signal fires (before or after the wait began), and when the waiting
/// task is cancelled, as when the group stops because the service that
/// should have fired it failed.
@Suite(.timeLimit(.minutes(20))) struct StartSignalTests {
    /// How many waits ended.
    final class Ended: Sendable {
        let count = Atomic<Int>(0)
    }

    @Test func everyWaitEndsWhenTheSignalFires() async throws {
        let signal = StartSignal()
        let ended = Ended()
        let waits = (0..<3).map { _ in
            Task {
                await signal.wait()
                ended.count.add(1, ordering: .relaxed)
            }
        }
        #expect(ended.count.load(ordering: .relaxed) == 0)
        signal.fire()
        for wait in waits { await wait.value }
        #expect(ended.count.load(ordering: .relaxed) == 3)
        await signal.wait()
    }

    @Test func aWaitEndsWhenItsTaskIsCancelled() async throws {
        let signal = StartSignal()
        let waiting = Task { await signal.wait() }
        waiting.cancel()
        await waiting.value
        #expect(waiting.isCancelled)
    }
}
