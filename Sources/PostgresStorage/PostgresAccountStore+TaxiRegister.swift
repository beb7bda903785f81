import FixRecords
import Foundation
import Storage

/// The taxis and devices administrators manage, beside the accounts they
/// belong with (a driver's account names a taxi).
extension PostgresAccountStore: TaxiRegisterStore {
    public func storedTaxis() async throws(StorageError) -> [StoredTaxi] {
        try await read { connection in
            let rows = try connection.query("SELECT id, plate, seats, active, updated_ms FROM taxi ORDER BY id")
            return try (0..<rows.count).map { row in
                StoredTaxi(
                    id: TaxiID(try rows.string(row, "id")), plate: try rows.text(row, "plate"),
                    seats: Int(try rows.integer(row, "seats")), active: try rows.boolean(row, "active"),
                    updatedAt: Date(storedMilliseconds: try rows.integer(row, "updated_ms")))
            }
        }
    }

    public func putTaxi(_ taxi: StoredTaxi) async throws(StorageError) {
        try await write { connection in
            try connection.query(
                """
                INSERT INTO taxi (id, plate, seats, active, updated_ms) VALUES ($1, $2, $3, $4, $5)
                ON CONFLICT (id) DO UPDATE SET plate = $2, seats = $3, active = $4, updated_ms = $5
                """,
                [.text(taxi.id.text), .optional(taxi.plate), .integer(Int64(taxi.seats)), .boolean(taxi.active),
                 .integer(taxi.updatedAt.storedMilliseconds)])
            try connection.query("UPDATE register_version SET version = version + 1")
        }
    }

    public func storedDevices() async throws(StorageError) -> [StoredDevice] {
        try await read { connection in
            let rows = try connection.query("SELECT id, taxi, protocol, secret, retired, updated_ms FROM device ORDER BY id")
            return try (0..<rows.count).map { row in
                StoredDevice(
                    id: try rows.string(row, "id"), taxi: TaxiID(try rows.string(row, "taxi")),
                    wireProtocol: try rows.text(row, "protocol"), secret: try rows.text(row, "secret"),
                    retired: try rows.boolean(row, "retired"), updatedAt: Date(storedMilliseconds: try rows.integer(row, "updated_ms")))
            }
        }
    }

    public func putDevice(_ device: StoredDevice) async throws(StorageError) {
        try await write { connection in
            try connection.query(
                """
                INSERT INTO device (id, taxi, protocol, secret, retired, updated_ms) VALUES ($1, $2, $3, $4, $5, $6)
                ON CONFLICT (id) DO UPDATE SET taxi = $2, protocol = $3, secret = $4, retired = $5, updated_ms = $6
                """,
                [.text(device.id), .text(device.taxi.text), .optional(device.wireProtocol), .optional(device.secret),
                 .boolean(device.retired), .integer(device.updatedAt.storedMilliseconds)])
            try connection.query("UPDATE register_version SET version = version + 1")
        }
    }

    public func registerVersion() async throws(StorageError) -> Int64 {
        try await read { connection in try connection.query("SELECT version FROM register_version").integer(0, "version") }
    }
}
