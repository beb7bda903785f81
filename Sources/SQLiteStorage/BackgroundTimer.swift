import Storage
import Dispatch

/// Runs an action every `interval` on a low-priority queue of its own,
/// until released: the background upkeep of a store (checkpointing its
/// write-ahead log, filing its notifications), off every commit path.
final class BackgroundTimer: @unchecked Sendable {
    // @unchecked: the timer is only touched by init and deinit.
    private let timer: any DispatchSourceTimer

    /// Starts running `action` every `interval`, first after one interval, on a queue named `label`.
    init(label: String, interval: Duration, action: @escaping @Sendable () -> Void) {
        let every = DispatchTimeInterval.nanoseconds(Int(interval / .nanoseconds(1)))
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: label, qos: .background))
        timer.setEventHandler(handler: action)
        timer.schedule(deadline: .now() + every, repeating: every, leeway: every)
        timer.activate()
    }

    deinit {
        timer.cancel()
    }
}
