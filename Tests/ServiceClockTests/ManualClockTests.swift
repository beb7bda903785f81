import Foundation
import ServiceClock
import Testing

@Suite struct ManualClockTests {
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

    @Test func theSystemClockReadsTheMachine() {
        let clock = SystemClock()
        #expect(abs(clock.now.timeIntervalSinceNow) < 1)
        #expect(clock.uptime >= .zero)
    }
}
