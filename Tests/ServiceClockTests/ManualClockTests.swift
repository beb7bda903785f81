import Dispatch
import Foundation
import ServiceClock
import Synchronization
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(20))) struct ManualClockTests {
    static let start = Date(timeIntervalSince1970: 1_790_000_000)

    /// Wall time and uptime move together, and only when told.
    @Test func timeMovesOnlyWhenAdvanced() {
        let clock = ManualClock(now: Self.start)
        #expect(clock.now == Self.start && clock.uptime == .zero)
        clock.advance(by: .seconds(15))
        #expect(clock.now == Self.start.addingTimeInterval(15))
        #expect(clock.uptime == .seconds(15))
    }

    /// A sleeper wakes once its time is reached, not before.
    @Test func aSleeperWakesAtItsDeadline() async throws {
        let clock = ManualClock(now: Self.start)
        let woke = Task { try await clock.sleep(for: .seconds(15)); return clock.uptime }
        while clock.sleeperCount == 0 { await Task.yield() }
        clock.advance(by: .seconds(10))
        #expect(clock.sleeperCount == 1, "10 s in, a 15 s sleep still sleeps")
        clock.advance(by: .seconds(5))
        #expect(try await woke.value == .seconds(15))
    }

    /// A service stopping cancels its sleeping tasks: they wake at once,
    /// with nobody advancing the clock, and are no longer counted.
    @Test func aCancelledSleeperWakesAtOnceWithCancellation() async throws {
        let clock = ManualClock(now: Self.start)
        let sleeper = Task { try await clock.sleep(for: .seconds(3600)) }
        while clock.sleeperCount == 0 { await Task.yield() }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
        let cancelledFirst = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(3600))
        }
        await #expect(throws: CancellationError.self) { try await cancelledFirst.value }
        #expect(clock.sleeperCount == 0)
    }

    /// A thread blocked on the clock (a store's upkeep) wakes once its time
    /// is reached, with no task involved; an interruption ends its wait at
    /// once and leaves nothing sleeping.
    @Test func aBlockedThreadWakesAtItsDeadlineOrWhenInterrupted() async throws {
        let clock = ManualClock(now: Self.start)
        let wokeAt = Mutex<[Duration]>([])
        let interruption = DispatchSemaphore(value: 0)
        Thread {
            for _ in 0..<2 {
                clock.blockThread(for: .seconds(15), interruptedBy: interruption)
                wokeAt.withLock { $0.append(clock.uptime) }
            }
        }.start()
        try await waitUntil("the thread asleep on the clock") { clock.sleeperCount == 1 }
        clock.advance(by: .seconds(10))
        #expect(wokeAt.withLock { $0 }.isEmpty, "10 s in, a 15 s pause still blocks")
        clock.advance(by: .seconds(5))
        try await waitUntil("the thread woken by the clock") { wokeAt.withLock { $0 } } satisfies: { $0 == [.seconds(15)] }
        try await waitUntil("the thread asleep again") { clock.sleeperCount == 1 }
        interruption.signal()
        try await waitUntil("the thread woken by the interruption") { wokeAt.withLock { $0 } } satisfies: {
            $0 == [.seconds(15), .seconds(15)]
        }
        #expect(clock.sleeperCount == 0)
    }

    @Test func theSystemClockReadsTheMachine() {
        let clock = SystemClock()
        #expect(abs(clock.now.timeIntervalSinceNow) < 1)
        #expect(clock.uptime >= .zero)
    }
}
