import Foundation
import Storage
import GRDB
import GRDBSQLite

/// An insert prepared through SQLite's C interface for the rows of one
/// transaction, each column bound in place.
///
/// The stores' commit threads are on the way of every acknowledgement (a
/// fix's ACK, a dispatch command's answer), so a row should cost the insert
/// itself: GRDB's `execute(arguments:)` builds an array of boxed values and
/// runs its own checks for every row, which cost about as much as SQLite's
/// work on it.
struct PreparedInsert {
    /// GRDB's statement, prepared once per connection and kept in its cache.
    private let prepared: Statement
    private let connection: OpaquePointer
    private var statement: SQLiteStatement { prepared.sqliteStatement }

    /// The insert `sql` on `db`'s connection (prepared on first use, then
    /// taken from the connection's cache), for the current transaction.
    /// - Throws: ``StorageError/writeFailed(reason:)`` with SQLite's message.
    init(_ sql: String, in db: Database) throws(StorageError) {
        guard let connection = db.sqliteConnection else {
            throw .writeFailed(reason: "the database is closed")
        }
        do {
            prepared = try db.cachedStatement(sql: sql)
        } catch {
            throw .writeFailed(reason: "cannot prepare \(sql): \(error)")
        }
        self.connection = connection
    }

    /// Binds `text` as UTF-8 to parameter `index` (1-based), copied by SQLite before the call returns.
    func bind(_ text: String, at index: Int32) {
        var text = text
        text.withUTF8 { bytes in
            _ = bytes.withMemoryRebound(to: CChar.self) { chars in
                sqlite3_bind_text(statement, index, chars.baseAddress, Int32(chars.count), Self.transient)
            }
        }
    }

    /// Binds `bytes` as a blob (an empty one too, not NULL) to parameter `index`.
    func bind(_ bytes: Data, at index: Int32) {
        guard !bytes.isEmpty else {
            sqlite3_bind_zeroblob(statement, index, 0)
            return
        }
        bytes.withUnsafeBytes { raw in
            _ = sqlite3_bind_blob(statement, index, raw.baseAddress, Int32(raw.count), Self.transient)
        }
    }

    /// Binds `value` to parameter `index`.
    func bind(_ value: Int64, at index: Int32) {
        sqlite3_bind_int64(statement, index, value)
    }

    /// Binds `value` to parameter `index`.
    func bind(_ value: Double, at index: Int32) {
        sqlite3_bind_double(statement, index, value)
    }

    /// Binds NULL to parameter `index`.
    func bindNull(at index: Int32) {
        sqlite3_bind_null(statement, index)
    }

    /// Inserts the row bound so far and makes the statement ready for the next.
    /// - Throws: ``StorageError/writeFailed(reason:)`` saying `what` could not be written, with SQLite's message.
    func insert(_ what: @autoclosure () -> String) throws(StorageError) {
        defer { sqlite3_reset(statement) }
        guard sqlite3_step(statement) == SQLITE_DONE else {
            throw .writeFailed(reason: "cannot write \(what()): \(String(cString: sqlite3_errmsg(connection)))")
        }
    }

    /// SQLite's SQLITE_TRANSIENT: copy the bound bytes.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
