import FixRecords
import GeoKit
import GRDB
import GRDBSQLite
import Zones

/// Appends accepted fixes to the journal table through SQLite's C interface.
///
/// The commit thread is on every fix's way to its ACK, so a row should cost
/// the insert itself: one statement is prepared per commit and each column
/// is bound in place, instead of building an array of boxed values per row.
enum JournalInsert {
    /// Inserts `fixes` into journal table `table` in `db`'s current
    /// transaction; throws a write failure with SQLite's message.
    static func append(_ fixes: [AcceptedFix], to table: String, in db: Database) throws {
        let sql = "INSERT INTO \(table) (\(FixStore.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        guard let connection = db.sqliteConnection else {
            throw StorageError.writeFailed(reason: "the journal database is closed")
        }
        var prepared: OpaquePointer?
        guard sqlite3_prepare_v2(connection, sql, -1, &prepared, nil) == SQLITE_OK, let statement = prepared else {
            throw failure(connection, "cannot prepare the journal insert")
        }
        defer { sqlite3_finalize(statement) }
        for fix in fixes {
            bind(fix.taxiId.text, at: 1, in: statement)
            sqlite3_bind_int64(statement, 2, SQLiteFixArchive.milliseconds(fix.time))
            bind(fix.deviceId, at: 3, in: statement)
            bind(fix.wireProtocol.rawValue, at: 4, in: statement)
            sqlite3_bind_double(statement, 5, fix.coordinate.longitude)
            sqlite3_bind_double(statement, 6, fix.coordinate.latitude)
            sqlite3_bind_double(statement, 7, fix.speedKmh)
            sqlite3_bind_double(statement, 8, fix.heading)
            if let zone = fix.zoneId { bind(zone.text, at: 9, in: statement) } else { sqlite3_bind_null(statement, 9) }
            sqlite3_bind_int64(statement, 10, SQLiteFixArchive.milliseconds(fix.receivedAt))
            guard sqlite3_step(statement) == SQLITE_DONE else {
                throw failure(connection, "cannot append the fix of device \(fix.deviceId) to the journal")
            }
            sqlite3_reset(statement)
        }
    }

    /// Binds `text` as UTF-8, copied by SQLite before the call returns.
    private static func bind(_ text: String, at index: Int32, in statement: OpaquePointer) {
        var text = text
        text.withUTF8 { bytes in
            _ = bytes.withMemoryRebound(to: CChar.self) { chars in
                sqlite3_bind_text(statement, index, chars.baseAddress, Int32(chars.count), transient)
            }
        }
    }

    /// SQLite's SQLITE_TRANSIENT: copy the bound bytes.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private static func failure(_ connection: OpaquePointer, _ what: String) -> StorageError {
        .writeFailed(reason: "\(what): \(String(cString: sqlite3_errmsg(connection)))")
    }
}
