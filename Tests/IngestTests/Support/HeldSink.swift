import FixRecords
import Synchronization
@testable import Ingest

/// A fix sink that holds every submission until the test completes it, so
/// that a test decides when (and whether) fixes become durable.
final class HeldSink: FixSink {
    private let held = Mutex<[(fixes: [AcceptedFix], completion: @Sendable (Result<Void, any Error>) -> Void)]>([])

    func submit(_ fixes: [AcceptedFix], completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        held.withLock { $0.append((fixes, completion)) }
    }

    /// Submissions waiting for the test.
    var waiting: Int { held.withLock { $0.count } }

    /// Completes the oldest submission (or the newest) with `result`; the fixes it held.
    @discardableResult
    func complete(with result: Result<Void, any Error>, newest: Bool = false) -> [AcceptedFix] {
        let next = held.withLock { $0.isEmpty ? nil : newest ? $0.removeLast() : $0.removeFirst() }
        next?.completion(result)
        return next?.fixes ?? []
    }
}
