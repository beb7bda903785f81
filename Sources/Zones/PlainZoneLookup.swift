import GeoKit

/// The textbook point-in-zone lookup: an R-tree (GEOS STRtree) over zone
/// envelopes, then GEOS prepared `covers` on each candidate, border rule
/// applied. ``ZoneIndex`` answers the same, faster; this is its yardstick.
///
/// One instance per thread (the STRtree is not thread-safe).
public final class PlainZoneLookup {
    private let tree: STRtree
    private let prepared: [PreparedGeometry]
    private var candidates: [Int] = []

    public init(zoneSet: ZoneSet) throws {
        prepared = try zoneSet.zones.map { try PreparedGeometry($0.geometry) }
        tree = try STRtree(zoneSet.zones.map(\.geometry))
    }

    /// The position in the zone set of the zone at `coordinate`, or nil when outside.
    public func zonePosition(at coordinate: Coordinate) throws -> Int? {
        let point = try Geometry.point(coordinate)
        tree.query(point, into: &candidates)
        return BorderRule.winner(amongCovering: candidates.filter { prepared[$0].intersects(point) })
    }
}
