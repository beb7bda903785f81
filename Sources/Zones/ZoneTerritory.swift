import GeoKit

/// The points the border rule gives one zone of a set (SPEC Z2): those its
/// polygon covers and no zone before it in the set covers.
///
/// A zone's polygon alone claims its whole border, which it shares with its
/// neighbours; asked "which fixes were in this zone", every zone would
/// count a fix on a shared border, and the zones' counts would add up to
/// more fixes than there are. The territory gives each such point to the
/// one zone the live lookup (``ZoneIndex``) gives it, so history answers
/// and live positions agree.
public struct ZoneTerritory: Sendable {
    /// The zone.
    public let zone: Zone
    /// The zones before ``zone`` in the set whose polygons meet it: where
    /// one of them also covers a point, the point is theirs.
    public let precedingNeighbours: [Zone]

    /// A territory of `zone` less what `precedingNeighbours` cover.
    public init(zone: Zone, precedingNeighbours: [Zone] = []) {
        self.zone = zone
        self.precedingNeighbours = precedingNeighbours
    }

    /// The territory of the zone `id` in `zoneSet`; nil when the set has no such zone.
    public init?(_ id: ZoneID, in zoneSet: ZoneSet) {
        guard let position = zoneSet.position(of: id) else { return nil }
        let zone = zoneSet.zones[position]
        let preceding = zoneSet.zones[..<position].filter { other in
            other.boundingBox.intersects(zone.boundingBox) && other.geometry.intersects(zone.geometry)
        }
        self.init(zone: zone, precedingNeighbours: preceding)
    }

    /// A test of many points against this territory, with every polygon prepared once.
    public func preparedTest() throws -> PreparedTest {
        PreparedTest(
            zone: try PreparedGeometry(zone.geometry),
            box: zone.boundingBox,
            neighbours: try precedingNeighbours.map { ($0.boundingBox, try PreparedGeometry($0.geometry)) })
    }

    /// Whether points lie in a territory, its polygons prepared for repeated tests.
    public struct PreparedTest {
        let zone: PreparedGeometry
        let box: BoundingBox
        let neighbours: [(BoundingBox, PreparedGeometry)]

        /// Whether the territory holds `coordinate`.
        public func contains(_ coordinate: Coordinate) -> Bool {
            guard box.contains(coordinate), zone.covers(coordinate) else { return false }
            return !neighbours.contains { box, polygon in box.contains(coordinate) && polygon.covers(coordinate) }
        }
    }
}
