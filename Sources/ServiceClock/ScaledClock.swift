import Foundation

/// A clock that runs `rate` times faster than the machine's, from a chosen
/// start (`serve --clock-rate`, `--clock-start`): the service's time for a
/// simulated city whose taxis and passengers live `rate` times faster than
/// real time, so that everything the service times (a driver's answer, a
/// queue's turnover, an offer's 15 s, a taxi's silence) is in the
/// simulation's seconds, as its fixes' times are. Wall time and monotonic
/// time both run at the rate; sleeps last `1/rate` of their duration.
public struct ScaledClock: ServiceClock {
    /// Clock seconds per real second.
    public let rate: Double
    private let start: Date
    private let started = ContinuousClock.now

    /// A clock at `rate` (more than 0) whose wall time is `start` now.
    public init(rate: Double, start: Date = Date()) {
        precondition(rate > 0 && rate.isFinite, "a clock rate is a positive number")
        self.rate = rate
        self.start = start
    }

    public var now: Date { start.addingTimeInterval(uptime.inSeconds) }

    public var uptime: Duration { (ContinuousClock.now - started) * rate }

    public func sleep(for duration: Duration) async throws {
        try await Task.sleep(for: duration / rate)
    }
}
