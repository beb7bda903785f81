import GeoKit

/// A checked set of zones: ids unique, geometries valid, no overlaps beyond
/// the tolerance. Zones are kept in border-rule order (ascending ``ZoneID``).
public struct ZoneSet: Sendable {
    /// The zones, in ascending id order.
    public let zones: [Zone]
    private let positions: [ZoneID: Int]

    /// Creates a set from zones with distinct ids (sorted here).
    public init(zones: [Zone]) {
        let sorted = zones.sorted { $0.id < $1.id }
        self.zones = sorted
        self.positions = Dictionary(sorted.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The zone with `id`, if any.
    public subscript(id: ZoneID) -> Zone? {
        positions[id].map { zones[$0] }
    }

    /// The position of the zone with `id` in ``zones``.
    public func position(of id: ZoneID) -> Int? { positions[id] }

    /// The bounding box of all zones; nil for an empty set.
    public var boundingBox: BoundingBox? {
        zones.dropFirst().reduce(zones.first?.boundingBox) { $0?.union($1.boundingBox) }
    }
}
