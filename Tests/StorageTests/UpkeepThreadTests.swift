import Foundation
import ServiceClock
import Storage
import Synchronization
import TestSupport
import Testing

/// A store's upkeep runs when its clock says so, not when real time has
/// passed: on a manual clock it runs only as the clock moves, waits as long
/// as its work asks, and stops at once when told, mid-pause.
@Suite(.timeLimit(.minutes(20))) struct UpkeepThreadTests {
    @Test func theWorkRunsAfterEachPauseOfTheClockAndNeverBefore() async throws {
        let clock = ManualClock(now: Date())
        let runs = Mutex<[Duration]>([])
        let upkeep = UpkeepThread(name: "upkeep-test", clock: clock, firstPause: .seconds(10)) {
            runs.withLock { $0.append(clock.uptime) }
            return .seconds(30)
        }
        defer { upkeep.stop() }

        try await waitUntil("the upkeep asleep on the clock") { clock.sleeperCount == 1 }
        clock.advance(by: .seconds(9))
        #expect(runs.withLock { $0 }.isEmpty, "nothing runs before the first pause is over")
        clock.advance(by: .seconds(1))
        try await waitUntil("the first run") { runs.withLock { $0 } } satisfies: { $0 == [.seconds(10)] }

        try await waitUntil("the upkeep asleep again") { clock.sleeperCount == 1 }
        clock.advance(by: .seconds(29))
        #expect(runs.withLock { $0.count } == 1, "the next run waits the pause the work asked for")
        clock.advance(by: .seconds(1))
        try await waitUntil("the second run") { runs.withLock { $0 } } satisfies: { $0 == [.seconds(10), .seconds(40)] }
    }

    @Test func stoppingEndsAPauseAtOnceAndNothingRunsAfter() async throws {
        let clock = ManualClock(now: Date())
        let runs = Atomic(0)
        let upkeep = UpkeepThread(name: "upkeep-test", clock: clock, firstPause: .seconds(1)) {
            runs.add(1, ordering: .sequentiallyConsistent)
            return .seconds(1)
        }
        try await waitUntil("the upkeep asleep on the clock") { clock.sleeperCount == 1 }
        upkeep.stop()
        try await waitUntil("the pause ended by the stop") { clock.sleeperCount == 0 }
        clock.advance(by: .seconds(5))
        #expect(runs.load(ordering: .sequentiallyConsistent) == 0)
    }

    @Test func workThatAnswersNilEndsTheUpkeep() async throws {
        let clock = ManualClock(now: Date())
        let runs = Atomic(0)
        let upkeep = UpkeepThread(name: "upkeep-test", clock: clock, firstPause: .seconds(1)) {
            runs.add(1, ordering: .sequentiallyConsistent)
            return nil
        }
        defer { upkeep.stop() }
        try await waitUntil("the upkeep asleep on the clock") { clock.sleeperCount == 1 }
        clock.advance(by: .seconds(1))
        try await waitUntil("the one run") { runs.load(ordering: .sequentiallyConsistent) == 1 }
        clock.advance(by: .seconds(5))
        #expect(clock.sleeperCount == 0, "no pause follows the last run")
        #expect(runs.load(ordering: .sequentiallyConsistent) == 1)
    }
}
