import Foundation
import ServiceClock
import Synchronization

/// An archive whose commits go to an unindexed journal, which a
/// ``JournalMover`` empties into the indexed store in the background: the
/// SQLite archive and the PostgreSQL one.
package protocol JournaledArchive: AnyObject, Sendable {
    /// Moves what the journal holds now into the store, in one batch sorted
    /// by (taxi, time), and says what it moved; nil when the journal held
    /// nothing. Called by one mover thread at a time.
    func moveJournalOnce() throws -> JournalMoveReport?
}

/// What the background mover reports after each move, for metrics: a mover
/// that falls behind shows as moves growing longer and larger.
public struct JournalMoveReport: Sendable {
    /// Fixes the move added to the store (a resent fix the store already
    /// holds is not counted).
    public var storedFixes: Int
    /// Time spent copying into the store and emptying the journal.
    public var duration: Duration

    /// A move that stored `storedFixes` fixes in `duration`.
    public init(storedFixes: Int, duration: Duration) {
        self.storedFixes = storedFixes
        self.duration = duration
    }
}

/// Moves fixes from an archive's journal to its store in the background,
/// every interval, on an ``UpkeepThread`` (lower priority than the ACK
/// path): commits stay one sequential append, and the store's indexes are
/// written a page per many fixes instead of a page per fix.
///
/// An archive whose moves run in another process (a database server, which
/// no nice value of ours reaches) asks the mover to rest after each move
/// `restFactor` times as long as the move took, so that moving never takes
/// more than its share of a core from the commits that ACKs wait for: a
/// burst beyond what the store can index waits in the journal, where
/// readers see it, and moves once the burst is over.
///
/// A failed move (disk full, I/O error, the database server gone) loses
/// nothing: the rows stay in the journal and the next move tries again. It
/// is reported, and ``failure`` holds its reason until a move succeeds.
package final class JournalMover: Sendable {
    private let interval: Duration
    private let restFactor: Int
    private let report: @Sendable (JournalMoveReport) -> Void
    private let reportFailure: @Sendable (any Error, Int) -> Void
    private let clock: any ServiceClock
    private let upkeep = Mutex<UpkeepThread?>(nil)
    private let lock = Mutex(())
    private let failures = Mutex<(count: Int, reason: String?)>((0, nil))

    /// A mover that moves every `interval` of `clock` once started, resting
    /// at least `restFactor` times as long as a move took after it (0: never
    /// longer than the interval); `report` hears of every move,
    /// `reportFailure` of every failed one with how many failed in a row.
    package init(
        interval: Duration, restFactor: Int = 0, clock: any ServiceClock = SystemClock(),
        report: @escaping @Sendable (JournalMoveReport) -> Void,
        reportFailure: @escaping @Sendable (any Error, Int) -> Void
    ) {
        self.interval = interval
        self.clock = clock
        self.restFactor = max(0, restFactor)
        self.report = report
        self.reportFailure = reportFailure
    }

    /// Why moves fail, while they do.
    package var failure: String? { failures.withLock { $0.reason } }

    /// Starts moving `archive`'s journal every interval of the mover's
    /// clock, until ``stop()`` or until the archive is gone (the upkeep
    /// holds it weakly).
    package func start(archive: some JournaledArchive) {
        let upkeep = UpkeepThread(name: "mytaxi-journal-mover", clock: clock, firstPause: interval) { [weak archive, self] in
            guard let archive else { return nil }
            let took = ContinuousClock().measure { self.moveReportingFailures(archive: archive) }
            return max(interval, took * restFactor)
        }
        self.upkeep.withLock { $0 = upkeep }
    }

    /// One background move; a failure is counted and reported, never thrown away.
    private func moveReportingFailures(archive: some JournaledArchive) {
        do {
            try moveNow(archive: archive)
            failures.withLock { $0 = (0, nil) }
        } catch {
            let inARow = failures.withLock { failures in
                failures = (failures.count + 1, "moving journaled fixes into the store failed: \(error)")
                return failures.count
            }
            reportFailure(error, inARow)
        }
    }

    /// Stops the background moves (a move under way finishes first).
    package func stop() {
        upkeep.withLock { $0?.stop() }
    }

    /// Moves everything journaled so far, now, on the caller's thread (never
    /// at the same time as the background move).
    package func moveNow(archive: some JournaledArchive) throws {
        try lock.withLock { _ in
            if let move = try archive.moveJournalOnce() { report(move) }
        }
    }
}
