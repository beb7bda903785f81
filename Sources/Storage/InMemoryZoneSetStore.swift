import Foundation
import Synchronization

/// Zone set versions in memory, for tests. Same contract as the SQLite store.
public final class InMemoryZoneSetStore: ZoneSetStore {
    private struct Stored {
        var version: ZoneSetVersion
        var geoJSON: Data
    }

    private struct Contents {
        var stored: [Stored] = []
        var active: (version: Int, activation: ZoneSetActivation)?
    }

    private let contents = Mutex(Contents())

    /// An empty store.
    public init() {}

    public func add(geoJSON: Data, zoneCount: Int, uploadedBy: String, at: Date, comment: String?) async throws(StorageError) -> ZoneSetVersion {
        contents.withLock { contents in
            let version = ZoneSetVersion(
                version: contents.stored.count + 1, uploadedBy: uploadedBy, uploadedAt: at.roundedToStoredMilliseconds, zoneCount: zoneCount,
                bytes: geoJSON.count, comment: comment, activation: nil)
            contents.stored.append(Stored(version: version, geoJSON: geoJSON))
            return version
        }
    }

    public func versions() async throws(StorageError) -> [ZoneSetVersion] {
        contents.withLock { contents in contents.stored.reversed().map { Self.withActivation($0.version, contents.active) } }
    }

    public func geoJSON(of version: Int) async throws(StorageError) -> Data? {
        contents.withLock { contents in contents.stored.first { $0.version.version == version }?.geoJSON }
    }

    public func activate(_ version: Int, by username: String, at: Date) async throws(StorageError) -> ZoneSetVersion? {
        contents.withLock { contents in
            guard let stored = contents.stored.first(where: { $0.version.version == version }) else { return nil }
            contents.active = (version, ZoneSetActivation(by: username, at: at.roundedToStoredMilliseconds))
            return Self.withActivation(stored.version, contents.active)
        }
    }

    public func activeVersion() async throws(StorageError) -> ZoneSetVersion? {
        contents.withLock { contents in
            guard let active = contents.active, let stored = contents.stored.first(where: { $0.version.version == active.version }) else {
                return nil
            }
            return Self.withActivation(stored.version, active)
        }
    }

    private static func withActivation(_ version: ZoneSetVersion, _ active: (version: Int, activation: ZoneSetActivation)?) -> ZoneSetVersion {
        let activation = active.flatMap { $0.version == version.version ? $0.activation : nil }
        return ZoneSetVersion(
            version: version.version, uploadedBy: version.uploadedBy, uploadedAt: version.uploadedAt, zoneCount: version.zoneCount,
            bytes: version.bytes, comment: version.comment, activation: activation)
    }
}
