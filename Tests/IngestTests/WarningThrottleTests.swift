import Testing
@testable import Ingest

/// The warning for refused connections: a flood of them makes one log line
/// per interval, and each line says how many it stands for.
@Suite(.timeLimit(.minutes(20))) struct WarningThrottleTests {
    let start = ContinuousClock.now

    /// The first refusal is logged at once.
    @Test func theFirstEventIsLoggedAtOnce() {
        var throttle = WarningThrottle(interval: .seconds(10))
        #expect(throttle.record(at: start) == 1)
    }

    /// A thousand refusals within the interval make no further line; the
    /// first one after it stands for all that were held back.
    @Test func aFloodMakesOneLinePerIntervalCountingTheHeldBack() {
        var throttle = WarningThrottle(interval: .seconds(10))
        #expect(throttle.record(at: start) == 1)
        let held = (1...1000).compactMap { throttle.record(at: start + .milliseconds($0)) }
        #expect(held.isEmpty)
        #expect(throttle.record(at: start + .seconds(10)) == 1001)
        #expect(throttle.record(at: start + .seconds(11)) == nil)
        #expect(throttle.record(at: start + .seconds(25)) == 2)
    }
}
