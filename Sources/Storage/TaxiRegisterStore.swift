/// Where the taxis and devices administrators manage through the API live
/// (SPEC D9, I4), beside the accounts, so that a taxi added or a device
/// moved takes effect on every node without a restart or SIGHUP.
///
/// Records are put whole (created or replaced by their id) and never
/// deleted: a taxi or device leaves service by being retired, and its id
/// stays known. Every put raises ``registerVersion()``, which nodes poll to
/// see that another node changed something.
/// `TaxiRegisterStoreContractTests` runs every implementation.
public protocol TaxiRegisterStore: Sendable {
    /// Every stored taxi, by id.
    func storedTaxis() async throws(StorageError) -> [StoredTaxi]

    /// Creates `taxi`, or replaces the stored taxi of its id.
    func putTaxi(_ taxi: StoredTaxi) async throws(StorageError)

    /// Every stored device, by id.
    func storedDevices() async throws(StorageError) -> [StoredDevice]

    /// Creates `device`, or replaces the stored device of its id.
    func putDevice(_ device: StoredDevice) async throws(StorageError)

    /// A number that grows with every put, by whichever process: equal
    /// numbers mean nothing changed in between.
    func registerVersion() async throws(StorageError) -> Int64
}
