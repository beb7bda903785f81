import FixRecords
import Foundation
import PostgresStorage
import SQLiteStorage
import Storage
import Testing

/// The `TaxiRegisterStore` contract, run against every implementation:
/// records are put whole by id, come back as put (dates to the
/// millisecond), outlive the process, and every put raises the version
/// other nodes poll.
@Suite(.timeLimit(.minutes(20))) struct TaxiRegisterStoreContractTests {
    static let implementations = ["in-memory", "sqlite"] + PostgresTestDatabase.implementation("postgresql")

    static func make(_ name: String) throws -> (store: any TaxiRegisterStore, reopen: (() throws -> any TaxiRegisterStore)?, cleanUp: () -> Void) {
        switch name {
        case "postgresql":
            let database = try PostgresTestDatabase.make()
            return (PostgresAccountStore(pool: database.pool), { PostgresAccountStore(pool: PostgresPool(url: database.url)) }, database.cleanUp)
        case "sqlite":
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("mytaxi-register-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            return (try SQLiteAccountStore(directory: path), { try SQLiteAccountStore(directory: path) },
                    { try? FileManager.default.removeItem(atPath: path) })
        default:
            return (InMemoryTaxiRegisterStore(), nil, {})
        }
    }

    static let at = Date(timeIntervalSince1970: 1_790_000_000.123_4)
    static let stored = Date(timeIntervalSince1970: 1_790_000_000.123)

    @Test(arguments: implementations)
    func taxisAndDevicesArePutWholeAndComeBackById(implementation: String) async throws {
        let (store, reopen, cleanUp) = try Self.make(implementation)
        defer { cleanUp() }
        let version = try await store.registerVersion()
        try await store.putTaxi(StoredTaxi(id: "T9", plate: "9X99", seats: 6, active: true, updatedAt: Self.at))
        try await store.putTaxi(StoredTaxi(id: "T1", plate: nil, seats: 4, active: true, updatedAt: Self.at))
        try await store.putDevice(StoredDevice(id: "imei-9", taxi: "T9", wireProtocol: "gt06", secret: nil, retired: false, updatedAt: Self.at))
        let afterThree = try await store.registerVersion()
        #expect(afterThree > version)
        try await store.putTaxi(StoredTaxi(id: "T9", plate: "9X99", seats: 7, active: false, updatedAt: Self.at))
        try await store.putDevice(StoredDevice(
            id: "imei-9", taxi: "T1", wireProtocol: nil, secret: "s3cret-key", retired: true, updatedAt: Self.at))
        #expect(try await store.registerVersion() > afterThree, "every put raises the version")
        let taxis = [StoredTaxi(id: "T1", plate: nil, seats: 4, active: true, updatedAt: Self.stored),
                     StoredTaxi(id: "T9", plate: "9X99", seats: 7, active: false, updatedAt: Self.stored)]
        let devices = [StoredDevice(id: "imei-9", taxi: "T1", wireProtocol: nil, secret: "s3cret-key", retired: true, updatedAt: Self.stored)]
        for reader in [store] + (try reopen.map { [try $0()] } ?? []) {
            #expect(try await reader.storedTaxis() == taxis)
            #expect(try await reader.storedDevices() == devices)
        }
    }
}
