import Dispatch
import Foundation

/// Turns SIGHUP into a reload and SIGTERM/SIGINT into a graceful stop.
final class SignalWatch: @unchecked Sendable {
    private var sources: [any DispatchSourceSignal] = []
    private let queue = DispatchQueue(label: "mytaxi-signals")

    /// Calls `reload` on every SIGHUP.
    func onReload(_ reload: @escaping @Sendable () -> Void) {
        signal(SIGHUP, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: queue)
        source.setEventHandler(handler: reload)
        source.resume()
        sources.append(source)
    }

    /// Returns on the first SIGTERM or SIGINT.
    func waitForStop() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumed = ResumeOnce(continuation)
            for number in [SIGTERM, SIGINT] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                source.setEventHandler { resumed.resume() }
                source.resume()
                sources.append(source)
            }
        }
    }
}

/// Resumes a continuation at most once, whichever signal comes first.
private final class ResumeOnce: @unchecked Sendable {
    private var continuation: CheckedContinuation<Void, Never>?
    private let lock = NSLock()

    init(_ continuation: CheckedContinuation<Void, Never>) {
        self.continuation = continuation
    }

    func resume() {
        lock.lock()
        let pending = continuation
        continuation = nil
        lock.unlock()
        pending?.resume()
    }
}
