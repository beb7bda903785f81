import FixRecords
import Foundation
import GRDB
import Storage

/// The taxis and devices administrators manage, in `accounts.sqlite`
/// beside the accounts they belong with (a driver's account names a taxi).
extension SQLiteAccountStore: TaxiRegisterStore {
    public func storedTaxis() async throws(StorageError) -> [StoredTaxi] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT id, plate, seats, active, updated_ms FROM taxi ORDER BY id").map { row in
                StoredTaxi(
                    id: TaxiID(row["id"] as String), plate: row["plate"], seats: row["seats"], active: row["active"],
                    updatedAt: Date(storedMilliseconds: row["updated_ms"]))
            }
        }
    }

    public func putTaxi(_ taxi: StoredTaxi) async throws(StorageError) {
        try await write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO taxi (id, plate, seats, active, updated_ms) VALUES (?, ?, ?, ?, ?)",
                arguments: [taxi.id.text, taxi.plate, taxi.seats, taxi.active, taxi.updatedAt.storedMilliseconds])
            try db.execute(sql: "UPDATE register_version SET version = version + 1")
        }
    }

    public func storedDevices() async throws(StorageError) -> [StoredDevice] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT id, taxi, protocol, secret, retired, updated_ms FROM device ORDER BY id").map { row in
                StoredDevice(
                    id: row["id"], taxi: TaxiID(row["taxi"] as String), wireProtocol: row["protocol"], secret: row["secret"],
                    retired: row["retired"], updatedAt: Date(storedMilliseconds: row["updated_ms"]))
            }
        }
    }

    public func putDevice(_ device: StoredDevice) async throws(StorageError) {
        try await write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO device (id, taxi, protocol, secret, retired, updated_ms) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [device.id, device.taxi.text, device.wireProtocol, device.secret, device.retired,
                            device.updatedAt.storedMilliseconds])
            try db.execute(sql: "UPDATE register_version SET version = version + 1")
        }
    }

    public func registerVersion() async throws(StorageError) -> Int64 {
        try await read { db in try Int64.fetchOne(db, sql: "SELECT version FROM register_version") ?? 0 }
    }
}
