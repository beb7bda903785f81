import Foundation
import ServiceClock
import Testing

/// A simulation's service clock (`serve --clock-rate`): its seconds pass
/// `rate` times faster than those of the clock beneath, for its sleeps as
/// for its readings. Driven over a manual clock, so no test waits on real time.
@Suite(.timeLimit(.minutes(20))) struct ScaledClockTests {
    static let start = Date(timeIntervalSince1970: 1_790_000_000)

    /// At 10x, one second beneath is ten on the clock, in both readings.
    @Test func bothReadingsRunAtTheRate() {
        let beneath = ManualClock(now: Self.start)
        beneath.advance(by: .seconds(5))
        let clock = ScaledClock(rate: 10, start: Self.start.addingTimeInterval(3600), base: beneath)
        #expect(clock.rate == 10)
        #expect(clock.uptime == .zero && clock.now == Self.start.addingTimeInterval(3600), "it starts at its start, whatever the time beneath")
        beneath.advance(by: .milliseconds(1500))
        #expect(clock.uptime == .seconds(15))
        #expect(clock.now == Self.start.addingTimeInterval(3615))
    }

    /// Two nodes of one city started 7 s apart with the same origin tell
    /// the same time, and so does a node restarted later: the city's time
    /// goes on from the origin instead of starting over at each start.
    @Test func clocksWithOneOriginTellOneTimeWhateverTheirStart() {
        let beneath = ManualClock(now: Self.start.addingTimeInterval(2))
        let cityStart = Self.start.addingTimeInterval(3600)
        let first = ScaledClock(rate: 10, start: cityStart, origin: Self.start, base: beneath)
        #expect(first.now == cityStart.addingTimeInterval(20), "2 s after the origin is 20 s of the city's time")
        beneath.advance(by: .seconds(7))
        let second = ScaledClock(rate: 10, start: cityStart, origin: Self.start, base: beneath)
        #expect(second.now == first.now)
        #expect(second.now == cityStart.addingTimeInterval(90))
        beneath.advance(by: .milliseconds(500))
        #expect(first.now == cityStart.addingTimeInterval(95) && second.now == first.now)
        #expect(second.uptime == .seconds(5), "a node's uptime is its own, at the rate")
    }

    /// A 60 s sleep at 10x wakes once 6 s have passed beneath, not before.
    @Test func aSleepLastsItsDurationOverTheRate() async throws {
        let beneath = ManualClock(now: Self.start)
        let clock = ScaledClock(rate: 10, start: Self.start, base: beneath)
        let woke = Task { try await clock.sleep(for: .seconds(60)); return clock.uptime }
        while beneath.sleeperCount == 0 { await Task.yield() }
        beneath.advance(by: .seconds(5))
        #expect(beneath.sleeperCount == 1, "5 s beneath is 50 s on the clock: still asleep")
        beneath.advance(by: .seconds(1))
        #expect(try await woke.value == .seconds(60))
    }

    /// The machine's clock and a manual one run at 1, which `/v1/clock` tells.
    @Test func otherClocksRunAtOne() {
        #expect(SystemClock().rate == 1)
        #expect(ManualClock(now: Self.start).rate == 1)
    }
}
