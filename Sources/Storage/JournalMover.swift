import Dispatch
import Foundation
import GRDB
import Synchronization

/// Moves fixes from the archive's journal to its store (`FixStore`) in the
/// background, in batches sorted by (taxi, time), so the store's B-tree is
/// written a page per many fixes instead of a page per fix.
///
/// Each move switches the active journal table (commits go on into the
/// other one), copies the now frozen table into the store, then empties it
/// in one statement, so the journal's single writer, which every commit
/// needs, is held once per move for a moment instead of once per chunk of
/// deleted rows. Crash-safe without coordination: rows are copied (ignoring
/// those already there) before they are deleted, so a crash in between
/// only means copying them again; a move first empties the inactive table
/// if a crash left rows in it. The copy reads the journal as a WAL reader
/// and never blocks a commit.
///
/// A failed move (disk full, I/O error) loses nothing: the rows stay in the
/// journal and the next move tries again. It is reported, and ``failure``
/// holds its reason until a move succeeds.
final class JournalMover: Sendable {
    private let interval: Duration
    private let report: @Sendable (SQLiteFixArchive.MoveReport) -> Void
    private let reportFailure: @Sendable (any Error, Int) -> Void
    private let stopping = Mutex(false)
    private let lock = Mutex(())
    private let failures = Mutex<(count: Int, reason: String?)>((0, nil))

    init(
        interval: Duration, report: @escaping @Sendable (SQLiteFixArchive.MoveReport) -> Void,
        reportFailure: @escaping @Sendable (any Error, Int) -> Void
    ) {
        self.interval = interval
        self.report = report
        self.reportFailure = reportFailure
    }

    /// Why moves fail, while they do.
    var failure: String? { failures.withLock { $0.reason } }

    func start(archive: SQLiteFixArchive) {
        let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
        let thread = Thread { [weak archive, self] in
            Self.yieldToTheAckPath()
            while !self.stopping.withLock({ $0 }) {
                Thread.sleep(forTimeInterval: seconds)
                guard let archive else { break }
                self.moveReportingFailures(archive: archive)
            }
        }
        thread.name = "mytaxi-journal-mover"
        thread.start()
    }

    /// Lowers the calling thread's scheduling priority (nice 10): moving is
    /// background work, and on a busy machine the cores should go first to
    /// the event loops and the commit thread, which every ACK waits for.
    /// (On Linux the nice value is per thread; `who` 0 is the calling thread.)
    private static func yieldToTheAckPath() {
        #if os(Linux)
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
        #endif
    }

    /// One background move; a failure is counted and reported, never thrown away.
    private func moveReportingFailures(archive: SQLiteFixArchive) {
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

    func stop() {
        stopping.withLock { $0 = true }
    }

    /// Moves everything journaled so far.
    func moveNow(archive: SQLiteFixArchive) throws {
        try lock.withLock { _ in
            try move(archive.inactiveJournal, of: archive)
            guard try !isEmpty(archive.activeJournal, of: archive) else { return }
            try archive.switchActiveJournal()
            try move(archive.inactiveJournal, of: archive)
            // The journal never checkpoints on commit (that would delay ACKs); do it here.
            try archive.journalCheckpointer.inDatabase { db in
                _ = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(PASSIVE)")
            }
        }
    }

    /// True when journal table `table` holds no row.
    private func isEmpty(_ table: String, of archive: SQLiteFixArchive) throws -> Bool {
        try archive.journal.read { db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(table))") != true }
    }

    /// Copies every row of journal table `table`, which no commit writes to,
    /// into the store, then empties it.
    private func move(_ table: String, of archive: SQLiteFixArchive) throws {
        guard try !isEmpty(table, of: archive) else { return }
        let started = ContinuousClock.now
        var stored = 0
        // Deferred, not GRDB's default IMMEDIATE: an immediate transaction would
        // take the attached journal's write lock too and block commits.
        try archive.store.writeWithoutTransaction { db in
            try db.inTransaction(.deferred) {
                stored = try FixStore.insert(from: "journal.\(table)", segmentRows: archive.segmentRows, in: db)
                return .commit
            }
        }
        try archive.journal.write { db in try db.execute(sql: "DELETE FROM \(table)") }
        report(SQLiteFixArchive.MoveReport(storedFixes: stored, duration: ContinuousClock.now - started))
    }
}
