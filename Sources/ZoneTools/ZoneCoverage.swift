import Foundation
import GeoKit
import JSONKit
import Zones

/// `mytaxi zones coverage`: how well a zone set tiles a service area, the
/// gaps inside the boundary that no zone covers and the overlaps between
/// zones, each with its area in square metres and a point inside it.
public struct ZoneCoverage: Sendable {
    /// Gaps, largest first.
    public let gaps: [CoverageFinding]
    /// Overlaps, largest first.
    public let overlaps: [CoverageFinding]
    /// The boundary's area in square metres.
    public let boundarySquareMetres: Double
    /// The area of the boundary that some zone covers, in square metres.
    public let coveredSquareMetres: Double

    /// Compares `zoneSet` with `boundary`.
    ///
    /// Gaps and overlaps no larger than `minimumSquareMetres` are digitising
    /// noise and not reported. `progress` is told of each step of the work.
    public init(zoneSet: ZoneSet, boundary: Geometry, minimumSquareMetres: Double,
                progress: (String) -> Void = { _ in }) throws {
        guard let center = boundary.boundingBox?.center else { throw GeometryError.invalidCoordinates("empty boundary") }
        let measure = try AreaMeasure(center: center)
        progress("joining \(zoneSet.zones.count) zones")
        let union = try Geometry.collection(zoneSet.zones.map(\.geometry)).unaryUnion()
        boundarySquareMetres = try measure.squareMetres(of: boundary)
        coveredSquareMetres = try measure.squareMetres(of: boundary.intersection(union))
        progress("finding gaps")
        gaps = try boundary.difference(union).polygons.compactMap { polygon in
            let area = try measure.squareMetres(of: polygon)
            guard area > minimumSquareMetres, let location = polygon.pointOnSurface else { return nil }
            return CoverageFinding(kind: .gap, zones: [], squareMetres: area, location: location, geometry: polygon)
        }.sorted { $0.squareMetres > $1.squareMetres }
        progress("finding overlaps between zones")
        overlaps = try Self.overlaps(of: zoneSet.zones, measure: measure, minimumSquareMetres: minimumSquareMetres)
    }

    /// Every pair of zones whose shared area is larger than the minimum.
    private static func overlaps(of zones: [Zone], measure: AreaMeasure,
                                 minimumSquareMetres: Double) throws -> [CoverageFinding] {
        let order = zones.indices.sorted { zones[$0].boundingBox.minX < zones[$1].boundingBox.minX }
        var found: [CoverageFinding] = []
        for (rank, first) in order.enumerated() {
            for second in order[(rank + 1)...] {
                if zones[second].boundingBox.minX > zones[first].boundingBox.maxX { break }
                guard zones[first].boundingBox.intersects(zones[second].boundingBox) else { continue }
                let pair = [zones[first], zones[second]].sorted { $0.id < $1.id }
                guard let shared = try pair[0].geometry.intersection(pair[1].geometry).polygonal() else { continue }
                let area = try measure.squareMetres(of: shared)
                guard area > minimumSquareMetres, let location = shared.pointOnSurface else { continue }
                found.append(CoverageFinding(kind: .overlap, zones: pair.map(\.id), squareMetres: area,
                                             location: location, geometry: shared))
            }
        }
        return found.sorted { $0.squareMetres > $1.squareMetres }
    }

    /// True when the zones tile the boundary: no gap and no overlap reported.
    public var tilesTheBoundary: Bool { gaps.isEmpty && overlaps.isEmpty }

    /// One line per finding (gaps, then overlaps, largest first), then a summary.
    public var report: [String] {
        let covered = boundarySquareMetres > 0 ? coveredSquareMetres / boundarySquareMetres * 100 : 0
        let gapArea = gaps.reduce(0) { $0 + $1.squareMetres }
        let overlapArea = overlaps.reduce(0) { $0 + $1.squareMetres }
        return (gaps + overlaps).map(\.text) + [
            String(format: "zones cover %.2f %% of the boundary", covered)
                + " (\(AreaMeasure.text(boundarySquareMetres))); \(gaps.count) gap(s), \(AreaMeasure.text(gapArea)) in all; "
                + "\(overlaps.count) overlap(s), \(AreaMeasure.text(overlapArea)) in all",
        ]
    }

    /// Every finding as a GeoJSON FeatureCollection.
    public var geoJSON: JSONValue {
        .object(["type": .string("FeatureCollection"), "features": .array((gaps + overlaps).map(\.feature))])
    }
}
