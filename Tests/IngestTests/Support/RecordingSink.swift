import FixRecords
import Foundation
import Synchronization
@testable import Ingest

/// A fix sink for listener tests: it fails the first `failures` submissions
/// (a full disk, a store that is down), then keeps every fix; each
/// submission may take `delay` seconds, one after the other, as a slow disk
/// would.
final class RecordingSink: FixSink {
    private struct State {
        var failuresLeft: Int
        var stored: [AcceptedFix] = []
        var submissions = 0
    }

    private let state: Mutex<State>
    private let delay: Double
    private let delayPerFix: Double
    private let queue = DispatchQueue(label: "recording-sink")
    /// Called with each submission before it is handled (e.g. to sample a queue depth).
    let onSubmit: @Sendable () -> Void

    init(
        failures: Int = 0, delay: Double = 0, delayPerFix: Double = 0, onSubmit: @escaping @Sendable () -> Void = {}
    ) {
        state = Mutex(State(failuresLeft: failures))
        self.delay = delay
        self.delayPerFix = delayPerFix
        self.onSubmit = onSubmit
    }

    /// Every fix stored so far.
    var stored: [AcceptedFix] { state.withLock { $0.stored } }

    func submit(_ fixes: [AcceptedFix], completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        onSubmit()
        queue.async { [self] in
            let seconds = delay + delayPerFix * Double(fixes.count)
            if seconds > 0 { Thread.sleep(forTimeInterval: seconds) }
            let failed = state.withLock { state -> Bool in
                state.submissions += 1
                guard state.failuresLeft == 0 else {
                    state.failuresLeft -= 1
                    return true
                }
                state.stored += fixes
                return false
            }
            completion(failed ? .failure(TestSocketError("disk full")) : .success(()))
        }
    }
}
