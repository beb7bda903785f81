import Foundation
import ServiceClock
import Testing

/// A simulation's service clock (`serve --clock-rate`): its seconds pass
/// `rate` times faster than real ones, for its sleeps as for its readings.
@Suite(.timeLimit(.minutes(20))) struct ScaledClockTests {
    static let start = Date(timeIntervalSince1970: 1_790_000_000)

    /// At 1000x, a 60 s sleep is over in a fraction of a real second, and
    /// the clock has moved at least the 60 s it slept, in both readings.
    @Test func aSleepLastsItsDurationOnTheClockAndAFractionInRealTime() async throws {
        let clock = ScaledClock(rate: 1000, start: Self.start)
        #expect(clock.rate == 1000)
        let real = try await ContinuousClock().measure { try await clock.sleep(for: .seconds(60)) }
        #expect(real >= .milliseconds(60), "a sleep is not shorter than its duration at the rate")
        #expect(real < .seconds(60), "nor as long as its duration in real time: \(real)")
        let uptime = clock.uptime
        #expect(uptime >= .seconds(60))
        #expect(clock.now.timeIntervalSince(Self.start) >= uptime.inSeconds, "the wall reading runs with the monotonic one")
    }

    /// The machine's clock and a manual one run at 1, which `/v1/clock` tells.
    @Test func otherClocksRunAtOne() {
        #expect(SystemClock().rate == 1)
        #expect(ManualClock(now: Self.start).rate == 1)
    }
}
