import GRDB
import ServiceClock
import Storage

/// Moves users' notifications from the dispatch log's unindexed
/// `notification_recent` table, where the log's writer appends them with
/// their entry, into `notification`, indexed by recipient, every
/// `interval` of a clock, from an ``UpkeepThread`` of its own: the inserts into that
/// index, each at a random place, happen off the transaction every request
/// waits on.
///
/// Each move is one short transaction: at every moment a notification is
/// in exactly one of the two tables, and the readers, which look in both in
/// one read transaction, see it once.
final class NotificationFiler: Sendable {
    private let database: DatabasePool
    /// Runs the upkeep for as long as this lives.
    private let upkeep: UpkeepThread

    /// Notifications filed per transaction: the log's writer waits for the
    /// filer's transaction, so each stays short.
    static let batchSize = 64

    /// Starts filing the notifications of `database` every `interval` of `clock`.
    init(database: DatabasePool, interval: Duration, clock: any ServiceClock) {
        self.database = database
        upkeep = UpkeepThread(name: "mytaxi-notification-filer", clock: clock, firstPause: interval) {
            // A failed move leaves the notifications where they are, readable: the next one files them.
            try? Self.fileWaiting(in: database)
            return interval
        }
    }

    /// Files every notification waiting now.
    /// - Throws: ``StorageError/writeFailed(reason:)``.
    func file() throws(StorageError) {
        do {
            try Self.fileWaiting(in: database)
        } catch {
            throw .writeFailed(reason: "cannot file the recent notifications: \(error)")
        }
    }

    /// Files the waiting notifications, ``batchSize`` per transaction. When
    /// none waits, as between bursts, a reader sees so and the log's write
    /// lock, which every command's commit needs, is not taken for nothing.
    private static func fileWaiting(in database: DatabasePool) throws {
        guard try database.read({ db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM notification_recent)") ?? false })
        else { return }
        while try database.write({ db in try move(in: db, limit: batchSize) }) {}
    }

    /// Moves the oldest `limit` waiting notifications (all of them when nil)
    /// in `db`'s current transaction; returns whether it moved any.
    @discardableResult
    static func move(in db: Database, limit: Int? = nil) throws -> Bool {
        let bound = limit.map { "WHERE rowid IN (SELECT rowid FROM notification_recent ORDER BY rowid LIMIT \($0))" } ?? ""
        try db.execute(sql: """
            INSERT INTO notification (sequence, idx, recipient, payload)
            SELECT sequence, idx, recipient, payload FROM notification_recent \(bound) ORDER BY rowid
            """)
        try db.execute(sql: "DELETE FROM notification_recent \(bound)")
        return db.changesCount > 0
    }
}
