import GRDB

extension EmbeddedStoreManifest.Counts {
    /// Counts what the copy of the store file `name` holds, read through
    /// `db`: the same numbers after a backup and after its restore, which
    /// checks that a restore brought back what the backup took. A table
    /// the file does not have (an older version's, a store never written)
    /// counts 0.
    /// - Throws: `DatabaseError` when the file cannot be read.
    static func count(file name: String, in db: Database) throws -> Self {
        func rows(_ table: String) throws -> Int {
            try db.tableExists(table) ? try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0 : 0
        }
        var counts = Self()
        switch name {
        case "fixes-journal.sqlite":
            counts.fixes = try SQLiteFixArchive.journalTables.reduce(0) { $0 + (try rows($1)) }
        case "fixes.sqlite":
            counts.fixes = try rows("fixes")
        case "dispatch.sqlite":
            counts.dispatchLogEntries = try rows("dispatch_log")
            counts.latestSequence = try db.tableExists("dispatch_log")
                ? try Int64.fetchOne(db, sql: "SELECT coalesce(max(sequence), 0) FROM dispatch_log") ?? 0 : 0
            counts.rides = try rows("ride_history")
        case "accounts.sqlite":
            counts.accounts = try rows("account")
        case "zones.sqlite":
            counts.zoneSetVersions = try rows("zone_set")
        case "idempotent-answers.sqlite":
            counts.idempotentAnswers = try rows("idempotent_answer")
        case "learned-speeds.sqlite":
            counts.learnedSpeedSnapshots = try rows("learned_speeds")
        default:
            break
        }
        return counts
    }
}
