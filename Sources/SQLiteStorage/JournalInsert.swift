import Storage
import FixRecords
import GeoKit
import GRDB
import Zones

/// Appends accepted fixes to the journal table through SQLite's C interface
/// (``PreparedInsert``): the commit thread is on every fix's way to its ACK.
enum JournalInsert {
    /// Inserts `fixes` into journal table `table` in `db`'s current
    /// transaction; throws a write failure with SQLite's message.
    static func append(_ fixes: [AcceptedFix], to table: String, in db: Database) throws(StorageError) {
        let insert = try PreparedInsert("INSERT INTO \(table) (\(FixStore.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", in: db)
        for fix in fixes {
            insert.bind(fix.taxiId.text, at: 1)
            insert.bind(SQLiteFixArchive.milliseconds(fix.time), at: 2)
            insert.bind(fix.deviceId, at: 3)
            insert.bind(fix.wireProtocol.rawValue, at: 4)
            insert.bind(fix.coordinate.longitude, at: 5)
            insert.bind(fix.coordinate.latitude, at: 6)
            insert.bind(fix.speedKmh, at: 7)
            insert.bind(fix.heading, at: 8)
            if let zone = fix.zoneId { insert.bind(zone.text, at: 9) } else { insert.bindNull(at: 9) }
            insert.bind(SQLiteFixArchive.milliseconds(fix.receivedAt), at: 10)
            try insert.insert("the fix of device \(fix.deviceId) to the journal")
        }
    }
}
