import Synchronization

/// The answer the group committer owes a command: settled on the log's
/// writer thread once the command's entry is durable (or failed), awaited
/// by the command's caller off the dispatcher, so that the dispatcher goes
/// on to the next command at once instead of being woken again for every
/// commit it waited on. Several may wait: a request sent again with the
/// same idempotency key waits for the first one's entry.
final class DurabilityPromise: Sendable {
    private enum State {
        case waiting([CheckedContinuation<Void, any Error>])
        case settled(Result<Void, any Error>)
    }

    private let state = Mutex(State.waiting([]))

    /// A promise not settled yet.
    init() {}

    /// Settles the promise with `result` and resumes whoever waits; the first settlement counts.
    func settle(_ result: Result<Void, any Error>) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            guard case .waiting(let waiters) = state else { return [] }
            state = .settled(result)
            return waiters
        }
        for waiter in waiters { waiter.resume(with: result) }
    }

    /// Returns once the entry is durable.
    /// - Throws: the error that kept it from being written.
    func wait() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let settled = state.withLock { state -> Result<Void, any Error>? in
                switch state {
                case .waiting(let waiters): state = .waiting(waiters + [continuation]); return nil
                case .settled(let result): return result
                }
            }
            if let settled { continuation.resume(with: settled) }
        }
    }
}
