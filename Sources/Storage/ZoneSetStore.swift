import Foundation

/// The zone sets planners uploaded, each kept whole as a version, and which
/// one is active (SPEC: planners publish zone GeoJSON to the running
/// service). A version is stored only once the zone engine accepted it, so
/// every stored version loads; versions are never changed or removed, so
/// an earlier one can be activated again.
///
/// The PostgreSQL store implements the same protocol; `ZoneSetStoreContractTests`
/// runs every implementation.
public protocol ZoneSetStore: Sendable {
    /// Stores `geoJSON` as the next version, not active.
    func add(geoJSON: Data, zoneCount: Int, uploadedBy: String, at: Date, comment: String?) async throws(StorageError) -> ZoneSetVersion

    /// Every version, newest first.
    func versions() async throws(StorageError) -> [ZoneSetVersion]

    /// The GeoJSON of `version`, nil when there is no such version.
    func geoJSON(of version: Int) async throws(StorageError) -> Data?

    /// Makes `version` the active one in place of any other; nil when there is no such version.
    func activate(_ version: Int, by username: String, at: Date) async throws(StorageError) -> ZoneSetVersion?

    /// The active version, nil when none was ever activated.
    func activeVersion() async throws(StorageError) -> ZoneSetVersion?
}
