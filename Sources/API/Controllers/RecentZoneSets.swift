import Synchronization
import Zones

/// The zone sets of the last few uploads, as the zone engine loaded them,
/// by version: activating a version just uploaded (what `mytaxi zones
/// publish` does) then skips loading and validating the same file again,
/// about half a second for the 263 NYC zones.
final class RecentZoneSets: Sendable {
    private let sets = Mutex<[(version: Int, zoneSet: ZoneSet)]>([])
    /// How many uploads are kept.
    static let capacity = 4

    init() {}

    /// Keeps `zoneSet` as version `version`'s, forgetting the oldest beyond ``capacity``.
    func remember(_ zoneSet: ZoneSet, as version: Int) {
        sets.withLock { sets in
            sets.append((version, zoneSet))
            if sets.count > Self.capacity { sets.removeFirst(sets.count - Self.capacity) }
        }
    }

    /// Version `version`'s zone set when it was uploaded lately, else nil.
    func zoneSet(of version: Int) -> ZoneSet? {
        sets.withLock { sets in sets.last { $0.version == version }?.zoneSet }
    }
}
