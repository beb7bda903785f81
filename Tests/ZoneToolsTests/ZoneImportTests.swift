import GeoKit
import JSONKit
import Testing
import Zones
import ZoneTools

@Suite(.timeLimit(.minutes(20))) struct ZoneImportTests {
    private func imported(from crs: String) throws -> ZoneImport {
        try ZoneImport(file: GeoJSONFile(path: TestData.fixture("midtown-2263.geojson")), crs: CRSTransform(from: crs),
                       idProperty: nil)
    }

    /// Four Midtown zones drawn in New York's state plane (US feet) land back
    /// on the shipped WGS84 zones they were made from, to well under a square metre.
    @Test func statePlaneFeetComeBackToTheShippedZones() throws {
        let result = try imported(from: "EPSG:2263")
        #expect(result.features == 4)
        #expect(result.document["crs"] == nil)
        let zones = try ZoneFileLoader.load(document: result.document, options: ZoneFileOptions()).zoneSet
        let shipped = try ZoneFileLoader.load(path: TestData.shipped("manhattan")).zoneSet
        let measure = try AreaMeasure(center: try #require(zones.boundingBox?.center))
        for zone in zones.zones {
            let original = try #require(shipped[zone.id])
            #expect(try measure.squareMetres(of: zone.geometry.symmetricDifference(original.geometry)) < 1, "zone \(zone.id)")
        }
    }

    /// Read as if already in degrees, the feet are out of range: each feature is named.
    @Test func theWrongCRSIsNamedPerFeature() throws {
        let error = #expect(throws: ZoneToolError.self) { try imported(from: "EPSG:4326") }
        guard case .invalidData(_, let problems)? = error else { Issue.record("not a problem of the data"); return }
        #expect(problems.map(\.subject) == ["161", "162", "163", "164"])
        #expect(problems.first?.message.contains("is EPSG:4326 the file's CRS?") == true)
    }

    /// PROJ does not know every code.
    @Test func anUnknownCRSIsRefused() {
        #expect(throws: GeometryError.self) { try CRSTransform(from: "EPSG:999999") }
    }
}
