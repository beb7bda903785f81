import GeoKit
import JSONKit
import Testing
import Zones
import ZoneTools

@Suite(.timeLimit(.minutes(20))) struct ZoneCoverageTests {
    private let anyOverlap = ZoneFileOptions(overlapToleranceSquareMetres: .infinity)

    private func coverage(minimum: Double = 1) throws -> ZoneCoverage {
        let zoneSet = try ZoneFileLoader.load(path: TestData.fixture("coverage-zones.geojson"), options: anyOverlap).zoneSet
        let boundary = try BoundaryFile.read(path: TestData.fixture("coverage-boundary.geojson"))
        return try ZoneCoverage(zoneSet: zoneSet, boundary: boundary, minimumSquareMetres: minimum)
    }

    /// The strip between b and c is the one gap: 0.01° × 0.01° at 43.7° N, about 894,000 m².
    @Test func findsTheGapWithItsAreaAndAPointInside() throws {
        let coverage = try coverage()
        #expect(coverage.gaps.count == 1)
        let gap = try #require(coverage.gaps.first)
        #expect(abs(gap.squareMetres - 894_000) < 9_000)
        #expect(gap.location.longitude > 7.42 && gap.location.longitude < 7.43)
        #expect(gap.zones.isEmpty)
    }

    /// a and b share a strip half as wide as the gap.
    @Test func findsTheOverlapNamingBothZones() throws {
        let coverage = try coverage()
        let overlap = try #require(coverage.overlaps.first)
        #expect(coverage.overlaps.count == 1)
        #expect(overlap.zones == ["a", "b"])
        #expect(abs(overlap.squareMetres - 447_000) < 4_500)
        #expect(overlap.text.hasPrefix("overlap a/b: 44."))
        #expect(!coverage.tilesTheBoundary)
        #expect(abs(coverage.coveredSquareMetres / coverage.boundarySquareMetres - 0.75) < 0.001)
    }

    /// Findings no larger than the minimum are noise.
    @Test func smallFindingsAreNotReported() throws {
        #expect(try coverage(minimum: 1_000_000).tilesTheBoundary)
        #expect(try coverage(minimum: 500_000).overlaps.isEmpty)
    }

    /// The GeoJSON has one feature per finding, with its kind and area.
    @Test func geoJSONHasAFeaturePerFinding() throws {
        guard case .array(let features)? = try coverage().geoJSON["features"] else {
            Issue.record("no features"); return
        }
        #expect(features.map { $0["properties"]?["kind"] } == [.string("gap"), .string("overlap")])
        #expect(features.allSatisfy { $0["geometry"]?["type"] == .string("Polygon") })
    }

    /// A grid that tiles its own outline has nothing to report.
    @Test func aTilingHasNoGapsOrOverlaps() throws {
        let zoneSet = try ZoneFileLoader.load(path: TestData.zonesFixture("grid-2x2.geojson")).zoneSet
        let outline = try Geometry.rectangle(BoundingBox(minX: 7.4, minY: 43.7, maxX: 7.42, maxY: 43.72))
        let coverage = try ZoneCoverage(zoneSet: zoneSet, boundary: outline, minimumSquareMetres: 0)
        #expect(coverage.tilesTheBoundary)
        #expect(coverage.report.count == 1)
        #expect(coverage.report[0].hasPrefix("zones cover 100.00 % of the boundary ("))
        #expect(coverage.report[0].hasSuffix("ha); 0 gap(s), 0.0 m² in all; 0 overlap(s), 0.0 m² in all"))
    }

    /// Against their own outline, the NYC taxi zones leave no gap, and the
    /// slivers along their shared borders are the overlaps the data describes.
    @Test(.enabled(if: TestData.nycZonesAvailable, "shared data missing: ../shared/data/nyc/taxi_zones.geojson"))
    func nycZonesOverlapOnlyBySlivers() throws {
        var options = TestData.nycOptions
        options.overlapToleranceSquareMetres = .infinity
        let zoneSet = try ZoneFileLoader.load(path: try #require(TestData.shared("nyc/taxi_zones.geojson")),
                                              options: options).zoneSet
        let outline = try Geometry.collection(zoneSet.zones.map(\.geometry)).unaryUnion()
        let coverage = try ZoneCoverage(zoneSet: zoneSet, boundary: outline, minimumSquareMetres: 0)
        #expect(coverage.gaps.isEmpty)
        #expect(coverage.overlaps.count > 100)
        #expect(coverage.overlaps.allSatisfy { $0.squareMetres < 1 })
    }

    /// A boundary that is not polygonal is named as a problem of the data.
    @Test func aBoundaryWithoutAreaIsRefused() throws {
        #expect(throws: ZoneToolError.self) {
            try BoundaryFile.read(path: TestData.zonesFixture("not-a-polygon.geojson"))
        }
    }
}
