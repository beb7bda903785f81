import Dispatch
import FixRecords
import Foundation
import Synchronization

/// Group commit (SPEC I6, D8): many submitters hand in items (fixes from
/// the connections, the dispatch engine's log entries), one thread writes
/// whatever has queued up in one transaction and one fsync, then tells
/// every submitter that its items are durable, so each may acknowledge.
///
/// Latency stays low under light load (a lone batch is written at once) and
/// throughput grows with load (batches get bigger, fsyncs do not multiply).
/// Items are written in the order they were submitted.
public final class GroupCommitter<Item: Sendable>: Sendable {
    /// What the committer reports after each transaction, for metrics.
    public struct CommitReport: Sendable {
        /// Items written in the transaction.
        public var itemCount: Int
        /// Submissions the transaction covered.
        public var submissionCount: Int
        /// Time spent writing and syncing.
        public var duration: Duration
    }

    private struct Submission {
        var items: [Item]
        var completion: @Sendable (Result<Void, any Error>) -> Void
    }

    private struct State {
        var queue: [Submission] = []
        var stopping = false
    }

    private let commit: @Sendable ([Item]) throws -> Void
    private let state = Mutex(State())
    private let wakeup = DispatchSemaphore(value: 0)
    private let stopped = DispatchSemaphore(value: 0)
    private let afterCommit: @Sendable ([Item], CommitReport) -> Void

    /// Starts the writer thread, named `threadName`. `commit` writes one
    /// batch durably (one transaction) or throws; `afterCommit` runs on the
    /// thread after each durable batch, before the submitters hear of it
    /// (e.g. to move the live index).
    public init(
        threadName: String,
        commit: @escaping @Sendable ([Item]) throws -> Void,
        afterCommit: @escaping @Sendable ([Item], CommitReport) -> Void = { _, _ in }
    ) {
        self.commit = commit
        self.afterCommit = afterCommit
        let thread = Thread { [self] in self.run() }
        thread.name = threadName
        thread.start()
    }

    /// Queues `items` for the next transaction; `completion` runs on the
    /// writer thread once they are durable, or with the error that kept
    /// them from being written (``StorageError/shuttingDown`` after ``shutdown()``).
    public func submit(_ items: [Item], completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        let accepted = state.withLock { state -> Bool in
            guard !state.stopping else { return false }
            state.queue.append(Submission(items: items, completion: completion))
            return true
        }
        if accepted {
            wakeup.signal()
        } else {
            completion(.failure(StorageError.shuttingDown))
        }
    }

    /// Writes what is queued, refuses new work and stops the thread.
    public func shutdown() {
        let wasRunning = state.withLock { state -> Bool in
            defer { state.stopping = true }
            return !state.stopping
        }
        guard wasRunning else { return }
        wakeup.signal()
        stopped.wait()
    }

    private func run() {
        let clock = ContinuousClock()
        while true {
            wakeup.wait()
            let (batch, stopping) = state.withLock { state in
                defer { state.queue.removeAll(keepingCapacity: true) }
                return (state.queue, state.stopping)
            }
            if !batch.isEmpty {
                let items = batch.count == 1 ? batch[0].items : batch.flatMap(\.items)
                let start = clock.now
                let result = Result { try commit(items) }
                let report = CommitReport(
                    itemCount: items.count, submissionCount: batch.count, duration: clock.now - start)
                if case .success = result { afterCommit(items, report) }
                for submission in batch { submission.completion(result) }
            }
            if stopping && state.withLock({ $0.queue.isEmpty }) { break }
        }
        stopped.signal()
    }
}

/// The fix archive's committer is the sink the ingest listeners submit to.
extension GroupCommitter: FixSink where Item == AcceptedFix {
    /// A committer appending to `archive`; `afterCommit` as for ``init(threadName:commit:afterCommit:)``.
    public convenience init(
        archive: any FixArchive,
        afterCommit: @escaping @Sendable ([AcceptedFix], CommitReport) -> Void = { _, _ in }
    ) {
        self.init(threadName: "mytaxi-group-commit", commit: { try archive.append($0) }, afterCommit: afterCommit)
    }
}
