import Synchronization

/// The territories (``ZoneTerritory``) of one zone set's zones, each worked
/// out the first time it is asked for and kept for as long as the set is.
///
/// Working a territory out tests the zone against every zone before it
/// with GEOS, which a request for a zone's fixes would otherwise pay each
/// time. The cache belongs to the set's ``ZoneIndex``: when a planner
/// puts another set in force, ``ActiveZones`` swaps the index and the
/// territories go with it, so a territory never outlives its zones.
public final class ZoneTerritories: Sendable {
    private let zoneSet: ZoneSet
    private let known = Mutex<[ZoneID: ZoneTerritory]>([:])

    /// An empty cache over `zoneSet`.
    public init(zoneSet: ZoneSet) {
        self.zoneSet = zoneSet
    }

    /// The territory of the zone `id`; nil when the set has no such zone.
    public func territory(of id: ZoneID) -> ZoneTerritory? {
        if let territory = known.withLock({ $0[id] }) { return territory }
        // Worked out outside the lock: two first requests may both do it, and both get the same answer.
        guard let territory = ZoneTerritory(id, in: zoneSet) else { return nil }
        known.withLock { $0[id] = territory }
        return territory
    }
}
