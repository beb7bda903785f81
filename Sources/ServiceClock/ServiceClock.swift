import Dispatch
import Foundation

/// Where the service reads the time, one value passed to everything whose
/// rules depend on it (validation, staleness, the API, and the dispatch
/// engine's offers and reservations), so that a test can drive time
/// instead of waiting for it.
///
/// Two readings, because the rules need both: wall time (`now`) for what is
/// dated (a fix's age, a reservation 2–48 h ahead), and monotonic time
/// (`uptime`, `sleep`) for how long something lasts (a 15 s offer), which
/// must not jump when the wall clock is set.
public protocol ServiceClock: Sendable {
    /// Wall-clock time.
    var now: Date { get }
    /// Monotonic time since the clock started; never goes back.
    var uptime: Duration { get }
    /// Returns once `duration` of monotonic time has passed (throws when the task is cancelled).
    func sleep(for duration: Duration) async throws
    /// Clock seconds per real second: 1 but for a simulation's ``ScaledClock``
    /// (a ``ManualClock`` moves only when told, and says 1).
    var rate: Double { get }
    /// Blocks the calling thread until `duration` of monotonic time has
    /// passed, or until `interruption` is signalled, whichever is first: for
    /// work on a thread of its own (a store's upkeep), which must go on
    /// however busy the cooperative pool is, so that no task may stand
    /// between it and the clock.
    func blockThread(for duration: Duration, interruptedBy interruption: DispatchSemaphore)
}

extension ServiceClock {
    public var rate: Double { 1 }
}

/// The machine's clocks: `Date()` and `ContinuousClock`.
public struct SystemClock: ServiceClock {
    private let started = ContinuousClock.now

    public init() {}

    public var now: Date { Date() }

    public var uptime: Duration { ContinuousClock.now - started }

    public func sleep(for duration: Duration) async throws {
        try await Task.sleep(for: duration)
    }

    public func blockThread(for duration: Duration, interruptedBy interruption: DispatchSemaphore) {
        let capped = min(max(duration, .zero), .seconds(86_400 * 365))
        _ = interruption.wait(timeout: .now() + .nanoseconds(Int(capped / .nanoseconds(1))))
    }
}
