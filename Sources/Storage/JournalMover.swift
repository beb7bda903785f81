import Dispatch
import Foundation
import GRDB
import Synchronization

/// Moves fixes from the archive's journal to its store in the background,
/// in batches sorted by (taxi, time), so the store's B-tree is written a
/// page per many fixes instead of a page per fix.
///
/// Crash-safe without coordination: rows are copied (ignoring those already
/// there) before they are deleted from the journal, so a crash in between
/// only means copying them again. The copy reads the journal as a WAL reader
/// and never blocks a commit; the delete runs in small chunks so that a
/// commit waits at most a few milliseconds for the journal's write lock.
final class JournalMover: Sendable {
    private let interval: Duration
    private let stopping = Mutex(false)
    private let lock = Mutex(())
    /// Rows moved per store transaction at most.
    static let batchLimit = 100_000
    /// Rows deleted from the journal per transaction.
    static let deleteChunk = 5_000

    init(interval: Duration) {
        self.interval = interval
    }

    func start(archive: SQLiteFixArchive) {
        let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
        let thread = Thread { [weak archive, self] in
            Self.yieldToTheAckPath()
            while !self.stopping.withLock({ $0 }) {
                Thread.sleep(forTimeInterval: seconds)
                guard let archive else { break }
                try? self.moveNow(archive: archive)
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

    func stop() {
        stopping.withLock { $0 = true }
    }

    /// Moves everything journaled so far; returns how many rows moved.
    @discardableResult
    func moveNow(archive: SQLiteFixArchive) throws -> Int {
        try lock.withLock { _ in
            var moved = 0
            while true {
                let range = try archive.journal.read { db in
                    try Row.fetchOne(
                        db,
                        sql: "SELECT min(seq), max(seq), count(*) FROM (SELECT seq FROM journal ORDER BY seq LIMIT ?)",
                        arguments: [Self.batchLimit])
                }
                guard let range, let first: Int64 = range[0], let last: Int64 = range[1] else { break }
                let count: Int = range[2]
                let columns = SQLiteFixArchive.columns
                // Deferred, not GRDB's default IMMEDIATE: an immediate transaction would
                // take the attached journal's write lock too and block commits.
                try archive.store.writeWithoutTransaction { db in
                    try db.inTransaction(.deferred) {
                        try db.execute(
                        sql: """
                            INSERT OR IGNORE INTO main.fixes (\(columns))
                            SELECT \(columns) FROM journal.journal WHERE seq BETWEEN ? AND ?
                            ORDER BY taxi_id, time_ms
                            """,
                        arguments: [first, last])
                        return .commit
                    }
                }
                for chunkEnd in stride(from: first + Int64(Self.deleteChunk) - 1, to: last + Int64(Self.deleteChunk), by: Self.deleteChunk) {
                    try archive.journal.write { db in
                        try db.execute(sql: "DELETE FROM journal WHERE seq <= ?", arguments: [min(chunkEnd, last)])
                    }
                }
                // The journal never checkpoints on commit (that would delay ACKs); do it here.
                _ = try? archive.journalCheckpointer.inDatabase { db in
                    try db.execute(sql: "PRAGMA wal_checkpoint(PASSIVE)")
                }
                moved += count
                if count < Self.batchLimit { break }
            }
            return moved
        }
    }
}
