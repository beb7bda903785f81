import Foundation
import Synchronization

/// Simulated time: `speedUp` simulated seconds pass per real second. On a
/// service that runs on the wall clock, the run's last simulated moment is
/// at the latest the wall clock's at its real end, so that no fix is ever
/// from the future (the service refuses fixes more than 5 minutes ahead of
/// its clock): a run faster than real time starts in the past, by default
/// just so that it ends at the wall clock's time, or at a chosen hour of
/// the day (the latest such hour that lets it end by then); the service's
/// own timers then run in real time. On a service that runs as fast as the
/// simulation (`serve --clock-rate`), the run lives on the service's time
/// (``init(following:hours:)``), and the service times everything in
/// simulated seconds. ``stop()`` ends the run's time early (Ctrl-C): every
/// loop of the run ends at its next step, letting the calls in flight
/// finish (cancelling them could deadlock FoundationNetworking's URLSession
/// on Linux).
public struct SimulatedClock: Sendable {
    private final class StopFlag: Sendable {
        let stopped = Mutex(false)
    }

    /// The simulated time at the start.
    public let start: Date
    /// Simulated seconds per real second.
    public let speedUp: Double
    /// Simulated seconds the run lasts.
    public let length: Double
    /// True when the run lives on the service's time (``init(following:hours:)``).
    public let followsService: Bool
    private let startedAt: ContinuousClock.Instant
    private let flag = StopFlag()

    /// A clock for `hours` simulated hours at `speedUp`, running from now:
    /// its simulated time starts at `startHour`:00 in `timeZone` (nil: just
    /// so that the run ends at the wall clock's time).
    public init(hours: Double, speedUp: Double, startHour: Int? = nil, timeZone: TimeZone = .gmt, wallNow: Date = Date()) {
        self.speedUp = speedUp
        length = hours * 3600
        start = Self.start(hours: hours, speedUp: speedUp, startHour: startHour, timeZone: timeZone, wallNow: wallNow)
        followsService = false
        startedAt = .now
    }

    /// A clock for `hours` simulated hours on the service's time: it runs
    /// at the service's rate from the service's time now.
    public init(following service: ServiceTime, hours: Double) {
        speedUp = service.rate
        length = hours * 3600
        startedAt = .now
        start = service.now.addingTimeInterval((startedAt - service.readAt).inSimulatedSeconds(at: service.rate))
        followsService = true
    }

    /// The simulated time a run of `hours` at `speedUp` starting at
    /// `wallNow` starts at: the latest moment that lets it end by the wall
    /// clock's time, or the latest `startHour`:00 in `timeZone` before it.
    public static func start(hours: Double, speedUp: Double, startHour: Int?, timeZone: TimeZone, wallNow: Date) -> Date {
        let length = hours * 3600
        let latest = wallNow.addingTimeInterval(-(length - length / speedUp))
        guard let startHour else { return latest }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var day = calendar.startOfDay(for: latest)
        while true {
            if let hour = calendar.date(bySettingHour: startHour, minute: 0, second: 0, of: day), hour <= latest { return hour }
            guard let before = calendar.date(byAdding: .day, value: -1, to: day) else { return latest }
            day = before
        }
    }

    /// Simulated seconds since the start.
    public var elapsed: Double {
        startedAt.duration(to: .now).inSimulatedSeconds(at: speedUp)
    }

    /// The simulated time now.
    public var now: Date { start.addingTimeInterval(elapsed) }

    /// The time on the service's clock now: the simulated time when the run
    /// follows it, the wall clock's otherwise.
    public var serviceNow: Date { followsService ? now : Date() }

    /// The simulated time `elapsed` seconds after the start.
    public func date(at elapsed: Double) -> Date { start.addingTimeInterval(elapsed) }

    /// True once the run's simulated time is over, or it was stopped.
    public var isOver: Bool { elapsed >= length || flag.stopped.withLock { $0 } }

    /// Ends the run's time now.
    public func stop() { flag.stopped.withLock { $0 = true } }

    /// Waits `simulatedSeconds` of simulated time, in steps of at most a
    /// quarter second; returns false when the run's time ended first.
    public func pause(simulated simulatedSeconds: Double) async -> Bool {
        let end = elapsed + simulatedSeconds
        while !isOver {
            let left = real(end - elapsed)
            if left <= .zero { return true }
            try? await Task.sleep(for: min(left, .milliseconds(250)))
        }
        return false
    }

    /// The real time `simulatedSeconds` take.
    public func real(_ simulatedSeconds: Double) -> Duration {
        .milliseconds(Int64((max(simulatedSeconds, 0) / speedUp * 1000).rounded()))
    }
}

extension Duration {
    /// The simulated seconds this real duration is at `speedUp`.
    fileprivate func inSimulatedSeconds(at speedUp: Double) -> Double {
        (Double(components.seconds) + Double(components.attoseconds) / 1e18) * speedUp
    }
}
