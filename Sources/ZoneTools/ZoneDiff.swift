import GeoKit
import Zones

/// `mytaxi zones diff OLD NEW`: what a new version of a zone set changes,
/// zone by zone, matched by id.
public struct ZoneDiff: Sendable {
    /// Every change, in zone-id order (a zone renamed and reshaped has both).
    public let changes: [ZoneChange]
    /// How many zones both sets have with the same name and shape.
    public let unchanged: Int

    /// Compares `old` with `new`.
    ///
    /// A zone counts as reshaped when more than `minimumSquareMetres` of
    /// ground changed hands, so that rewriting the same border with other
    /// rounding is not reported.
    public init(old: ZoneSet, new: ZoneSet, minimumSquareMetres: Double = 1) throws {
        let center = (old.boundingBox ?? new.boundingBox)?.center ?? Coordinate(longitude: 0, latitude: 0)
        let measure = try AreaMeasure(center: center)
        var changes: [ZoneChange] = []
        var unchanged = 0
        for zone in old.zones where new[zone.id] == nil {
            changes.append(.removed(id: zone.id, name: zone.name, squareMetres: try measure.squareMetres(of: zone.geometry)))
        }
        for zone in new.zones {
            guard let before = old[zone.id] else {
                changes.append(.added(id: zone.id, name: zone.name, squareMetres: try measure.squareMetres(of: zone.geometry)))
                continue
            }
            var changed = false
            if before.name != zone.name {
                changes.append(.renamed(id: zone.id, from: before.name, to: zone.name))
                changed = true
            }
            let redrawn = try measure.squareMetres(of: before.geometry.symmetricDifference(zone.geometry))
            if redrawn > minimumSquareMetres {
                changes.append(.reshaped(id: zone.id, name: zone.name,
                                         oldSquareMetres: try measure.squareMetres(of: before.geometry),
                                         newSquareMetres: try measure.squareMetres(of: zone.geometry),
                                         redrawnSquareMetres: redrawn))
                changed = true
            }
            if !changed { unchanged += 1 }
        }
        self.changes = changes.enumerated().sorted { lhs, rhs in
            lhs.element.id == rhs.element.id ? lhs.offset < rhs.offset : lhs.element.id < rhs.element.id
        }.map(\.element)
        self.unchanged = unchanged
    }

    /// One line per change, then a summary line.
    public var report: [String] {
        func count(_ kind: (ZoneChange) -> Bool) -> Int { changes.filter(kind).count }
        let added = count { if case .added = $0 { true } else { false } }
        let removed = count { if case .removed = $0 { true } else { false } }
        let renamed = count { if case .renamed = $0 { true } else { false } }
        let reshaped = count { if case .reshaped = $0 { true } else { false } }
        return changes.map(\.text)
            + ["\(added) added, \(removed) removed, \(renamed) renamed, \(reshaped) reshaped, \(unchanged) unchanged"]
    }
}
