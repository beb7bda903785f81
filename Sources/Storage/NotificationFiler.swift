import Dispatch
import GRDB

/// Moves users' notifications from the dispatch log's unindexed
/// `notification_recent` table, where the log's writer appends them with
/// their entry, into `notification`, indexed by recipient, every
/// `interval`, from a low-priority queue of its own: the inserts into that
/// index, each at a random place, happen off the transaction every request
/// waits on.
///
/// Each move is one short transaction: at every moment a notification is
/// in exactly one of the two tables, and the readers, which look in both in
/// one read transaction, see it once.
final class NotificationFiler: @unchecked Sendable {
    // @unchecked: the timer is only touched by init and deinit.
    private let database: DatabasePool
    private let timer: any DispatchSourceTimer

    /// Notifications filed per transaction: the log's writer waits for the
    /// filer's transaction, so each stays short.
    static let batchSize = 64

    /// Starts filing the notifications of `database` every `interval`.
    init(database: DatabasePool, interval: Duration) {
        self.database = database
        let every = DispatchTimeInterval.nanoseconds(Int(interval / .nanoseconds(1)))
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "mytaxi-notification-filer", qos: .background))
        timer.setEventHandler { [database] in
            // A failed move leaves the notifications where they are, readable: the next one files them.
            try? Self.fileWaiting(in: database)
        }
        timer.schedule(deadline: .now() + every, repeating: every, leeway: every)
        timer.activate()
    }

    deinit {
        timer.cancel()
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

    /// Files the waiting notifications, ``batchSize`` per transaction.
    private static func fileWaiting(in database: DatabasePool) throws {
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
