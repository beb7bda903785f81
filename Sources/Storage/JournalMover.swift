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
/// only means copying them again.
final class JournalMover: Sendable {
    private let interval: Duration
    private let stopping = Mutex(false)
    private let finished = DispatchSemaphore(value: 0)
    private let lock = Mutex(())
    /// Rows moved per transaction at most, to bound the store's write time.
    static let batchLimit = 100_000

    init(interval: Duration) {
        self.interval = interval
    }

    func start(archive: SQLiteFixArchive) {
        let thread = Thread { [weak archive, self] in
            while !self.stopping.withLock({ $0 }) {
                Thread.sleep(forTimeInterval: Double(self.interval.components.seconds)
                    + Double(self.interval.components.attoseconds) / 1e18)
                guard let archive else { break }
                try? self.moveNow(archive: archive)
            }
            self.finished.signal()
        }
        thread.name = "mytaxi-journal-mover"
        thread.start()
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
                let rows = try archive.journal.read { db in
                    try Row.fetchAll(
                        db, sql: "SELECT seq, \(SQLiteFixArchive.columns) FROM journal ORDER BY seq LIMIT ?",
                        arguments: [Self.batchLimit])
                }
                guard let lastSeq: Int64 = rows.last?["seq"] else { break }
                let sorted = rows.sorted {
                    let (a, b): (String, String) = ($0["taxi_id"], $1["taxi_id"])
                    if a != b { return a < b }
                    let (ta, tb): (Int64, Int64) = ($0["time_ms"], $1["time_ms"])
                    return ta < tb
                }
                try archive.store.write { db in
                    let statement = try db.cachedStatement(
                        sql: "INSERT OR IGNORE INTO fixes (\(SQLiteFixArchive.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
                    for row in sorted {
                        try statement.execute(arguments: [
                            row["taxi_id"], row["time_ms"], row["device_id"], row["protocol"], row["lon"], row["lat"],
                            row["speed_kmh"], row["heading"], row["zone_id"], row["received_ms"],
                        ])
                    }
                }
                try archive.journal.write { db in
                    try db.execute(sql: "DELETE FROM journal WHERE seq <= ?", arguments: [lastSeq])
                }
                // The journal never checkpoints on commit (that would delay ACKs); do it here.
                _ = try? archive.journal.writeWithoutTransaction { db in
                    try db.execute(sql: "PRAGMA wal_checkpoint(PASSIVE)")
                }
                moved += rows.count
                if rows.count < Self.batchLimit { break }
            }
            return moved
        }
    }
}
