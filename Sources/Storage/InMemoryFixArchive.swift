import FixRecords
import Foundation
import Synchronization
import Zones

/// An archive in memory, for tests where nothing needs to survive. Same
/// contract as the SQLite archive (`FixArchiveContractTests` runs both).
public final class InMemoryFixArchive: FixArchive {
    struct Key: Hashable {
        var taxi: TaxiID
        var time: Date
        var device: String
    }

    let storage = Mutex<[Key: AcceptedFix]>([:])

    public init() {}

    public func append(_ fixes: [AcceptedFix]) throws(StorageError) {
        storage.withLock { storage in
            for fix in fixes {
                let key = Key(taxi: fix.taxiId, time: fix.time, device: fix.deviceId)
                if storage[key] == nil { storage[key] = fix }
            }
        }
    }

    public func fixes(of taxi: TaxiID, in window: ClosedRange<Date>, limit: Int) async throws(StorageError) -> [AcceptedFix] {
        let matching = storage.withLock { storage in
            storage.values.filter { $0.taxiId == taxi && window.contains($0.time) }
        }
        return Array(matching.sorted { ($0.time, $0.deviceId) < ($1.time, $1.deviceId) }.prefix(limit))
    }

    public func latestFixPerTaxi() async throws(StorageError) -> [AcceptedFix] {
        let latest = storage.withLock { storage in
            Dictionary(storage.values.map { ($0.taxiId, $0) }) { $0.time >= $1.time ? $0 : $1 }
        }
        return latest.values.sorted { $0.taxiId < $1.taxiId }
    }

    public func count() async throws(StorageError) -> Int {
        storage.withLock { $0.count }
    }

    public func deleteFixes(takenBefore cutoff: Date) async throws(StorageError) -> Int {
        storage.withLock { storage in
            let before = storage.count
            storage = storage.filter { $0.key.time >= cutoff }
            return before - storage.count
        }
    }

    /// Nothing on disk: memory is not what retention protects.
    public func storedBytes() async throws(StorageError) -> Int64 {
        0
    }
}

/// The history questions in memory, answered as the SQLite archive answers them.
extension InMemoryFixArchive {
    public func track(of taxi: TaxiID, in window: ClosedRange<Date>, limit: Int) async throws(StorageError) -> FixTrack {
        FixHistoryMath.track(try await fixes(of: taxi, in: window, limit: limit))
    }

    public func dailyDistances(of taxi: TaxiID, in window: ClosedRange<Date>) async throws(StorageError) -> [DailyDistance] {
        FixHistoryMath.dailyDistances(try await fixes(of: taxi, in: window, limit: Int.max))
    }

    public func fixes(inside territory: ZoneTerritory, in window: ClosedRange<Date>, after: FixKey?, limit: Int) async throws(StorageError) -> [AcceptedFix] {
        let inWindow = storage.withLock { storage in storage.values.filter { window.contains($0.time) } }
        return try FixHistoryMath.inside(territory, inWindow, after: after ?? FixKey.before(window.lowerBound), limit: limit)
    }
}
