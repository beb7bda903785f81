import GeoKit
import JSONKit
import Testing
import Zones
import ZoneTools

@Suite(.timeLimit(.minutes(20))) struct ZoneSimplifyTests {
    private let anyOverlap = ZoneFileOptions(overlapToleranceSquareMetres: .infinity)

    private func simplifiedSet(_ zoneSet: ZoneSet, tolerance: Double) throws -> (ZoneSimplify, ZoneSet) {
        let simplify = try ZoneSimplify(zoneSet: zoneSet, toleranceMetres: tolerance, path: "test")
        let zones = zoneSet.zones.map { zone in
            Zone(id: zone.id, name: zone.name, geometry: simplify.geometries[zone.id] ?? zone.geometry)
        }
        return (simplify, ZoneSet(zones: zones))
    }

    /// Gaps inside the zones' own outline: the holes between zones.
    private func innerCoverage(_ zoneSet: ZoneSet) throws -> ZoneCoverage {
        let outline = try Geometry.collection(zoneSet.zones.map(\.geometry)).unaryUnion()
        return try ZoneCoverage(zoneSet: zoneSet, boundary: outline, minimumSquareMetres: 1)
    }

    /// Manhattan at 20 m: far fewer vertices, no neighbour lost, no new gap, no overlap.
    ///
    /// A zone may gain a neighbour: where three zones overlapped by slivers,
    /// a sliver given to one of them can make it touch the third along a
    /// few metres (114 and 148 at 20 m).
    @Test func manhattanKeepsItsTopology() throws {
        let original = try ZoneFileLoader.load(path: TestData.shipped("manhattan"), options: anyOverlap).zoneSet
        let (simplify, simplified) = try simplifiedSet(original, tolerance: 20)
        #expect(simplify.geometries.count == 69)
        #expect(simplify.verticesAfter < simplify.verticesBefore / 2)
        let before = try ZoneNeighbours(zoneSet: original)
        let after = try ZoneNeighbours(zoneSet: simplified)
        for zone in original.zones {
            let lost = Set(before[zone.id].map(\.id)).subtracting(after[zone.id].map(\.id))
            #expect(lost.isEmpty, "neighbours of \(zone.id)")
        }
        let coverage = try innerCoverage(simplified)
        #expect(coverage.overlaps.isEmpty)
        #expect(coverage.gaps.count <= (try innerCoverage(original)).gaps.count)
        for zone in simplified.zones { #expect(zone.geometry.validity.isValid, "zone \(zone.id)") }
    }

    /// What simplify writes reads back clean: no repeated position for the
    /// validator to repair (zones 116 and 120 had one each at 20 m).
    @Test func theSimplifiedFileValidatesWithoutRepairs() throws {
        let original = try ZoneFileLoader.load(path: TestData.shipped("manhattan"), options: anyOverlap).zoneSet
        let (simplify, _) = try simplifiedSet(original, tolerance: 20)
        let features = simplify.geometries.sorted { $0.key.text < $1.key.text }.map { id, geometry in
            JSONValue.object([
                "type": .string("Feature"), "id": .string(id.text), "properties": .object([:]),
                "geometry": geometry.geoJSON ?? .null,
            ])
        }
        let document = JSONValue.object(["type": .string("FeatureCollection"), "features": .array(features)])
        let reread = try ZoneFileLoader.load(document: document, options: anyOverlap)
        #expect(reread.zoneSet.zones.count == 69)
        #expect(reread.warnings.filter { $0.message.contains("repaired") }.isEmpty, "\(reread.warnings)")
    }

    /// Every simplified border stays within the tolerance of the original:
    /// the area that changed hands is at most the perimeter times the tolerance.
    @Test func bordersMoveNoFartherThanTheTolerance() throws {
        let original = try ZoneFileLoader.load(path: TestData.shipped("monaco"), options: anyOverlap).zoneSet
        let (_, simplified) = try simplifiedSet(original, tolerance: 5)
        let measure = try AreaMeasure(center: try #require(original.boundingBox?.center))
        let projection = try LocalProjection(center: try #require(original.boundingBox?.center))
        for zone in original.zones {
            let moved = try measure.squareMetres(of: zone.geometry.symmetricDifference(try #require(simplified[zone.id]).geometry))
            let perimeter = try projection.project(zone.geometry).length
            #expect(moved <= perimeter * 5, "zone \(zone.id)")
        }
    }

    /// A grid of squares has nothing to simplify.
    @Test func squaresStaySquares() throws {
        let original = try ZoneFileLoader.load(path: TestData.zonesFixture("grid-2x2.geojson")).zoneSet
        let (simplify, _) = try simplifiedSet(original, tolerance: 10)
        #expect(simplify.verticesAfter == simplify.verticesBefore)
        #expect(simplify.summary == "20 vertices before, 20 after (0.0 % fewer)")
    }

    /// The written file keeps every property and loads as a valid zone set.
    @Test func theWrittenFileLoads() throws {
        let file = try GeoJSONFile(path: TestData.shipped("monaco"))
        let zoneSet = try ZoneFileLoader.load(path: file.path).zoneSet
        let document = try ZoneSimplify(zoneSet: zoneSet, toleranceMetres: 10, path: file.path)
            .document(from: file, idProperty: nil)
        let loaded = try ZoneFileLoader.load(document: document, options: ZoneFileOptions())
        #expect(loaded.zoneSet.zones.count == 9)
        #expect(loaded.zoneSet["monte-carlo"]?.properties["osm_relation_id"] != nil)
    }
}
