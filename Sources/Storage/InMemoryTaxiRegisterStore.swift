import FixRecords
import Foundation
import Synchronization

/// Taxis and devices in memory, for tests and for a service run where
/// nothing needs to survive the process. Same contract as the SQLite store.
public final class InMemoryTaxiRegisterStore: TaxiRegisterStore {
    private struct Contents {
        var taxis: [TaxiID: StoredTaxi] = [:]
        var devices: [String: StoredDevice] = [:]
        var version: Int64 = 0
    }

    private let contents = Mutex(Contents())

    /// An empty store.
    public init() {}

    public func storedTaxis() async throws(StorageError) -> [StoredTaxi] {
        contents.withLock { $0.taxis.values.sorted { $0.id.text < $1.id.text } }
    }

    public func putTaxi(_ taxi: StoredTaxi) async throws(StorageError) {
        var stored = taxi
        stored.updatedAt = taxi.updatedAt.roundedToStoredMilliseconds
        contents.withLock { contents in
            contents.taxis[taxi.id] = stored
            contents.version += 1
        }
    }

    public func storedDevices() async throws(StorageError) -> [StoredDevice] {
        contents.withLock { $0.devices.values.sorted { $0.id < $1.id } }
    }

    public func putDevice(_ device: StoredDevice) async throws(StorageError) {
        var stored = device
        stored.updatedAt = device.updatedAt.roundedToStoredMilliseconds
        contents.withLock { contents in
            contents.devices[device.id] = stored
            contents.version += 1
        }
    }

    public func registerVersion() async throws(StorageError) -> Int64 {
        contents.withLock { $0.version }
    }
}
