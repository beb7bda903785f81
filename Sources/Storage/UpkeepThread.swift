import Dispatch
import Foundation
import ServiceClock
import Synchronization

/// A store's background upkeep (moving a journal into its store,
/// checkpointing a write-ahead log, filing notifications): a thread of its
/// own, at a lower priority than the ACK path, that runs its work after
/// each pause measured on a ``ServiceClock``. On the machine's clock in the
/// service; on a ``ManualClock`` in a test, which then moves the upkeep on
/// by advancing the clock instead of waiting for it.
///
/// The work runs on a thread, not on the cooperative pool, because it
/// blocks (SQLite, libpq) and must not hold up the tasks that answer
/// terminals and requests.
package final class UpkeepThread: Sendable {
    /// What the thread and its owner share; the thread does not hold the
    /// owner, so that releasing the owner stops the thread.
    private final class Shared: Sendable {
        let clock: any ServiceClock
        let stopped = Atomic(false)
        /// Signalled by ``UpkeepThread/stop()``, to end a pause at once.
        let stopSignal = DispatchSemaphore(value: 0)

        init(clock: any ServiceClock) {
            self.clock = clock
        }

        /// Blocks the calling thread for `duration` of the clock's time, or
        /// until stopped; says whether the upkeep goes on.
        ///
        /// The thread waits on the clock by itself, never through a task, so
        /// that upkeep goes on however busy the cooperative pool is (a WAL
        /// checkpoint must not wait for the tasks it makes room for).
        func pause(for duration: Duration) -> Bool {
            clock.blockThread(for: duration, interruptedBy: stopSignal)
            return !stopped.load(ordering: .acquiring)
        }
    }

    private let shared: Shared

    /// Starts a thread named `name` that waits `firstPause` on `clock`, runs
    /// `work`, and waits again for as long as `work` answers, until `work`
    /// answers nil or the upkeep is stopped (or released).
    package init(
        name: String, clock: any ServiceClock, firstPause: Duration, work: @escaping @Sendable () -> Duration?
    ) {
        let shared = Shared(clock: clock)
        self.shared = shared
        let thread = Thread {
            Self.yieldToTheAckPath()
            var pause = firstPause
            while shared.pause(for: pause) {
                guard let next = work() else { break }
                pause = next
            }
        }
        thread.name = name
        thread.start()
    }

    deinit {
        stop()
    }

    /// Stops the upkeep: a pause under way ends at once, and work under way
    /// finishes first.
    package func stop() {
        let (stopsNow, _) = shared.stopped.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing)
        if stopsNow { shared.stopSignal.signal() }
    }

    /// Lowers the calling thread's scheduling priority (nice 10): upkeep is
    /// background work, and on a busy machine the cores should go first to
    /// the event loops and the commit thread, which every ACK waits for.
    /// (On Linux the nice value is per thread; `who` 0 is the calling thread.)
    private static func yieldToTheAckPath() {
        #if os(Linux)
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
        #endif
    }
}
