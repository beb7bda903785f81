import Dispatch
import Foundation

/// A clock that runs `rate` times faster than another (the machine's, by
/// default) from a chosen start (`serve --clock-rate`, `--clock-start`):
/// the service's time for a simulated city whose taxis and passengers live
/// `rate` times faster than real time, so that everything the service
/// times (a driver's answer, a queue's turnover, an offer's 15 s, a taxi's
/// silence) is in the simulation's seconds, as its fixes' times are. Wall
/// time and monotonic time both run at the rate; sleeps last `1/rate` of
/// their duration on the clock beneath.
///
/// Given an origin (`serve --clock-origin`), the clock tells the time it
/// would tell had it started at `start` at that moment of the clock
/// beneath: several nodes of one simulated city started at different
/// moments with the same rate, start and origin tell the same time, and a
/// restarted node goes on at the city's time instead of starting over.
public struct ScaledClock: ServiceClock {
    /// Clock seconds per second of the clock beneath.
    public let rate: Double
    private let start: Date
    private let base: any ServiceClock
    private let baseStart: Duration

    /// A clock at `rate` (more than 0) over `base` whose wall time was
    /// `start` when `base`'s was `origin` (by default now).
    public init(rate: Double, start: Date, origin: Date? = nil, base: any ServiceClock = SystemClock()) {
        precondition(rate > 0 && rate.isFinite, "a clock rate is a positive number")
        self.rate = rate
        self.start = start.addingTimeInterval(origin.map { base.now.timeIntervalSince($0) * rate } ?? 0)
        self.base = base
        baseStart = base.uptime
    }

    public var now: Date { start.addingTimeInterval(uptime.inSeconds) }

    public var uptime: Duration { (base.uptime - baseStart) * rate }

    public func sleep(for duration: Duration) async throws {
        try await base.sleep(for: duration / rate)
    }

    public func blockThread(for duration: Duration, interruptedBy interruption: DispatchSemaphore) {
        base.blockThread(for: duration / rate, interruptedBy: interruption)
    }
}
