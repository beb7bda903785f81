import Dispatch
import FixRecords
import Foundation
import Synchronization

/// Group commit (SPEC I6): many connections hand in fixes, one thread
/// writes whatever has queued up in one transaction and one fsync, then
/// tells every submitter that its fixes are durable, so each may ACK.
///
/// Latency stays low under light load (a lone batch is written at once) and
/// throughput grows with load (batches get bigger, fsyncs do not multiply).
public final class GroupCommitter: FixSink {
    /// What the committer reports after each transaction, for metrics.
    public struct CommitReport: Sendable {
        /// Fixes written in the transaction.
        public var fixCount: Int
        /// Submissions the transaction covered.
        public var submissionCount: Int
        /// Time spent writing and syncing.
        public var duration: Duration
    }

    private struct Submission {
        var fixes: [AcceptedFix]
        var completion: @Sendable (Result<Void, any Error>) -> Void
    }

    private struct State {
        var queue: [Submission] = []
        var stopping = false
    }

    private let archive: any FixArchive
    private let state = Mutex(State())
    private let wakeup = DispatchSemaphore(value: 0)
    private let stopped = DispatchSemaphore(value: 0)
    private let afterCommit: @Sendable ([AcceptedFix], CommitReport) -> Void

    /// Starts the writer thread. `afterCommit` runs on it after each durable
    /// transaction, before the submitters hear of it (e.g. to move the live index).
    public init(
        archive: any FixArchive,
        afterCommit: @escaping @Sendable ([AcceptedFix], CommitReport) -> Void = { _, _ in }
    ) {
        self.archive = archive
        self.afterCommit = afterCommit
        let thread = Thread { [self] in self.run() }
        thread.name = "mytaxi-group-commit"
        thread.start()
    }

    public func submit(_ fixes: [AcceptedFix], completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        let accepted = state.withLock { state -> Bool in
            guard !state.stopping else { return false }
            state.queue.append(Submission(fixes: fixes, completion: completion))
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
                let fixes = batch.flatMap(\.fixes)
                let start = clock.now
                let result = Result { try archive.append(fixes) }
                let report = CommitReport(
                    fixCount: fixes.count, submissionCount: batch.count, duration: clock.now - start)
                if case .success = result { afterCommit(fixes, report) }
                for submission in batch { submission.completion(result) }
            }
            if stopping && state.withLock({ $0.queue.isEmpty }) { break }
        }
        stopped.signal()
    }
}
