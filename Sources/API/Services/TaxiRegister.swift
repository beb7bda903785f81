import FixRecords
import Fleet
import Foundation
import ServiceClock
import Storage
import Synchronization

/// The taxis and devices the service accepts (SPEC D9, I4): the devices
/// file, with what administrators keep in the store laid over it. A device
/// in the store wins over the file's line of the same id (moved to another
/// taxi, given a secret), a retired one is refused even when the file lists
/// it, and a retired taxi's devices are refused; a taxi's seats in the
/// store win over the file's.
///
/// Every change through the API is put in the store and applied to this
/// node's listeners before the call returns; other nodes sharing the store
/// see it at their next ``refresh()`` (the service polls every few seconds).
public final class TaxiRegister: Sendable {
    /// One taxi as the register shows it.
    public struct Taxi: Sendable, Equatable {
        public var id: TaxiID
        public var plate: String?
        public var seats: Int
        public var active: Bool
        /// The ids of the devices that report for it now.
        public var devices: [String]
        /// `file` when only the devices file knows it, `store` when administrators keep it.
        public var source: String
    }

    /// One device as the register shows it: never its secret.
    public struct Device: Sendable, Equatable {
        public var id: String
        public var taxi: TaxiID
        public var wireProtocol: String?
        public var hasSecret: Bool
        public var retired: Bool
        public var source: String
    }

    private struct State {
        var file: DeviceRegistry
        var taxis: [TaxiID: StoredTaxi] = [:]
        var devices: [String: StoredDevice] = [:]
        var version: Int64?
    }

    private let store: any TaxiRegisterStore
    private let clock: any ServiceClock
    private let apply: @Sendable (DeviceRegistry) -> Void
    private let state: Mutex<State>

    /// A register over `store`, laid over the devices file `file`, which
    /// hands every registry it makes to `apply` (the ingest pipeline's).
    public init(
        store: any TaxiRegisterStore, file: DeviceRegistry, clock: any ServiceClock,
        apply: @escaping @Sendable (DeviceRegistry) -> Void
    ) {
        self.store = store
        self.clock = clock
        self.apply = apply
        state = Mutex(State(file: file))
    }

    /// Reads the store when it changed since the last read, and applies the
    /// registry it makes: at start, and now and then for what other nodes changed.
    /// - Returns: whether anything was read.
    @discardableResult
    public func refresh() async throws(StorageError) -> Bool {
        let version = try await store.registerVersion()
        guard state.withLock({ $0.version }) != version else { return false }
        let taxis = try await store.storedTaxis()
        let devices = try await store.storedDevices()
        let registry = state.withLock { state in
            state.taxis = Dictionary(uniqueKeysWithValues: taxis.map { ($0.id, $0) })
            state.devices = Dictionary(uniqueKeysWithValues: devices.map { ($0.id, $0) })
            state.version = version
            return Self.merged(state)
        }
        apply(registry)
        return true
    }

    /// Puts a new devices file under the store's records (SIGHUP) and applies the result.
    public func replaceFile(_ file: DeviceRegistry) {
        apply(state.withLock { state in
            state.file = file
            return Self.merged(state)
        })
    }

    /// The registry the listeners use now.
    public var registry: DeviceRegistry { state.withLock { Self.merged($0) } }

    /// Every taxi of the file or the store, by id.
    public func taxis() -> [Taxi] {
        state.withLock { state in
            let registry = Self.merged(state)
            var devicesOfTaxi: [TaxiID: [String]] = [:]
            for (id, device) in registry.allDevices { devicesOfTaxi[device.taxi, default: []].append(id) }
            let ids = Set(state.file.taxis).union(state.taxis.keys)
            return ids.sorted { $0.text < $1.text }.map { id in
                let stored = state.taxis[id]
                return Taxi(
                    id: id, plate: stored?.plate, seats: stored?.seats ?? state.file.seats(of: id), active: stored?.active ?? true,
                    devices: (devicesOfTaxi[id] ?? []).sorted(), source: stored == nil ? "file" : "store")
            }
        }
    }

    /// The taxi `id`, nil when neither the file nor the store knows it.
    public func taxi(_ id: TaxiID) -> Taxi? { taxis().first { $0.id == id } }

    /// Every device of the file or the store, by id.
    public func devices() -> [Device] {
        state.withLock { state in
            let ids = Set(state.file.allDevices.keys).union(state.devices.keys)
            return ids.sorted().compactMap { id in
                if let stored = state.devices[id] {
                    return Device(
                        id: id, taxi: stored.taxi, wireProtocol: stored.wireProtocol,
                        hasSecret: stored.secret != nil || state.file.device(id)?.secret != nil,
                        retired: stored.retired, source: "store")
                }
                guard let line = state.file.device(id) else { return nil }
                return Device(id: id, taxi: line.taxi, wireProtocol: nil, hasSecret: line.secret != nil, retired: false, source: "file")
            }
        }
    }

    /// The device `id`, nil when neither the file nor the store knows it.
    public func device(_ id: String) -> Device? { devices().first { $0.id == id } }

    /// Puts `taxi` in the store and applies it at once.
    public func put(_ taxi: StoredTaxi) async throws(StorageError) {
        try await store.putTaxi(taxi)
        try await refresh()
    }

    /// Puts `device` in the store and applies it at once.
    public func put(_ device: StoredDevice) async throws(StorageError) {
        try await store.putDevice(device)
        try await refresh()
    }

    /// The stored record of taxi `id`, or one made from what the file says of it.
    public func storedTaxi(_ id: TaxiID) -> StoredTaxi? {
        state.withLock { state in
            if let stored = state.taxis[id] { return stored }
            guard state.file.taxis.contains(id) else { return nil }
            return StoredTaxi(id: id, plate: nil, seats: state.file.seats(of: id), active: true, updatedAt: clock.now)
        }
    }

    /// The stored record of device `id`, or one made from its line of the
    /// file (whose secret stays in the file, see ``merged(_:)``).
    public func storedDevice(_ id: String) -> StoredDevice? {
        state.withLock { state in
            if let stored = state.devices[id] { return stored }
            guard let line = state.file.device(id) else { return nil }
            return StoredDevice(id: id, taxi: line.taxi, wireProtocol: nil, secret: nil, retired: false, updatedAt: clock.now)
        }
    }

    /// The file's registry with the store's records laid over it. A stored
    /// device without a secret keeps the secret its line of the file gives:
    /// moving a device to another taxi never drops a secret the file set.
    private static func merged(_ state: State) -> DeviceRegistry {
        var devices = state.file.allDevices
        var seats = state.file.givenSeats
        for taxi in state.taxis.values { seats[taxi.id] = taxi.seats }
        for device in state.devices.values {
            let secret = device.secret.flatMap { DeviceSecret(registered: $0) } ?? state.file.device(device.id)?.secret
            devices[device.id] = device.retired ? nil : RegisteredDevice(taxi: device.taxi, secret: secret)
        }
        let retired = Set(state.taxis.values.filter { !$0.active }.map(\.id))
        return DeviceRegistry(devices: devices.filter { !retired.contains($0.value.taxi) }, seatsOfTaxi: seats)
    }
}
