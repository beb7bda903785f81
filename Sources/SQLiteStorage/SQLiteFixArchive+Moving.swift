import Foundation
import Storage
import GRDB

/// The SQLite archive's half of the background move (``JournalMover``).
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
extension SQLiteFixArchive {
    package func moveJournalOnce() throws -> JournalMoveReport? {
        let leftOver = try move(inactiveJournal)
        guard try !isEmpty(activeJournal) else { return leftOver }
        try switchActiveJournal()
        guard let moved = try move(inactiveJournal) else { return leftOver }
        // The journal never checkpoints on commit (that would delay ACKs); do it here.
        try journalCheckpointer.inDatabase { db in
            _ = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(PASSIVE)")
        }
        guard let leftOver else { return moved }
        return JournalMoveReport(
            storedFixes: leftOver.storedFixes + moved.storedFixes, duration: leftOver.duration + moved.duration)
    }

    /// True when journal table `table` holds no row.
    private func isEmpty(_ table: String) throws -> Bool {
        try journal.read { db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(table))") != true }
    }

    /// Copies every row of journal table `table`, which no commit writes to,
    /// into the store, then empties it; nil when it was empty.
    private func move(_ table: String) throws -> JournalMoveReport? {
        guard try !isEmpty(table) else { return nil }
        let started = ContinuousClock.now
        var stored = 0
        // Deferred, not GRDB's default IMMEDIATE: an immediate transaction would
        // take the attached journal's write lock too and block commits.
        try store.writeWithoutTransaction { db in
            try db.inTransaction(.deferred) {
                stored = try FixStore.insert(from: "journal.\(table)", segmentRows: segmentRows, in: db)
                return .commit
            }
        }
        try journal.write { db in try db.execute(sql: "DELETE FROM \(table)") }
        return JournalMoveReport(storedFixes: stored, duration: ContinuousClock.now - started)
    }
}
