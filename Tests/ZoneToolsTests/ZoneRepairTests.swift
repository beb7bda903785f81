import GeoKit
import JSONKit
import Testing
import Zones
import ZoneTools

@Suite(.timeLimit(.minutes(20))) struct ZoneRepairTests {
    private func repair(_ fixture: String) throws -> ZoneRepair {
        try ZoneRepair(file: GeoJSONFile(path: TestData.fixture(fixture)), idProperty: nil)
    }

    private func outcome(_ id: String, in repair: ZoneRepair) throws -> FeatureRepair.Outcome {
        try #require(repair.features.first { $0.subject == id }).outcome
    }

    /// Winding and repeated points are repaired, a valid feature is left byte for byte.
    @Test func windingAndRepeatsAreRepaired() throws {
        let repair = try repair("repair-mixed.geojson")
        #expect(try outcome("ok", in: repair) == .unchanged)
        guard case .repaired(let changes) = try outcome("cw", in: repair) else {
            Issue.record("cw not repaired"); return
        }
        #expect(changes == ["winding of 1 ring(s) set to RFC 7946's (exteriors counter-clockwise, holes clockwise)",
                            "1 repeated position(s) removed"])
        let original = try GeoJSONFile(path: TestData.fixture("repair-mixed.geojson")).features()
        #expect(repair.features[0].feature == original[0])
    }

    /// A bow tie has one reading, two triangles; a spike folds back onto its square.
    @Test func selfIntersectionsWithOneReadingAreMadeValid() throws {
        let repair = try repair("repair-mixed.geojson")
        guard case .repaired(let bowTie) = try outcome("bowtie", in: repair),
              case .repaired(let spike) = try outcome("spike", in: repair) else {
            Issue.record("bow tie or spike not repaired"); return
        }
        #expect(bowTie.last?.hasPrefix("made valid (was: Self-intersection at 7.415000,43.705000): 2 polygons") == true)
        #expect(spike.last?.contains("one polygon") == true)
    }

    /// What cannot be read one way only, or is malformed, is named and left as it was.
    @Test func ambiguousOrMalformedFeaturesAreLeftAsTheyWere() throws {
        let repair = try repair("repair-mixed.geojson")
        #expect(repair.leftAsIs.map(\.subject) == ["stray-hole", "open"])
        guard case .leftAsIs(let reason) = try outcome("stray-hole", in: repair) else { return }
        #expect(reason.contains("would add 89.55 ha outside its exterior rings"))
        guard case .leftAsIs(let unclosed) = try outcome("open", in: repair) else { return }
        #expect(unclosed.contains("ring is not closed"))
        let original = try GeoJSONFile(path: TestData.fixture("repair-mixed.geojson")).features()
        #expect(repair.features[4].feature == original[4])
        #expect(repair.report.last == "6 feature(s): 3 repaired, 2 not safe to repair (left as they were), 1 unchanged")
    }

    /// Once the features left as they were are taken out, the zone loader
    /// accepts the result with nothing more to repair.
    @Test func repairedFeaturesLoadWithoutWarnings() throws {
        let repair = try repair("repair-mixed.geojson")
        let kept = repair.features.filter { if case .leftAsIs = $0.outcome { false } else { true } }
        let document = JSONValue.object(["type": .string("FeatureCollection"), "features": .array(kept.map(\.feature))])
        let loaded = try ZoneFileLoader.load(document: document, options: ZoneFileOptions())
        #expect(loaded.zoneSet.zones.count == 4)
        #expect(loaded.warnings.isEmpty)
        #expect(loaded.zoneSet["bowtie"]?.geometry.typeName == "MultiPolygon")
    }

    /// The real NYC taxi zones are valid as published: nothing to repair.
    @Test(.enabled(if: TestData.nycZonesAvailable, "shared data missing: ../shared/data/nyc/taxi_zones.geojson"))
    func nycZonesNeedNoRepair() throws {
        let file = try GeoJSONFile(path: try #require(TestData.shared("nyc/taxi_zones.geojson")))
        let repair = try ZoneRepair(file: file, idProperty: "LocationID")
        #expect(repair.leftAsIs.isEmpty)
        #expect(repair.features.count == 263)
    }

    /// A document that is not a FeatureCollection is a problem in the data, not a crash.
    @Test func notACollectionIsAProblemOfTheFile() throws {
        #expect(throws: ZoneToolError.self) {
            try ZoneRepair(file: GeoJSONFile(path: TestData.zonesFixture("not-a-collection.geojson")), idProperty: nil)
        }
    }
}
