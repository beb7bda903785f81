import Foundation
import GeoKit
import JSONKit
import Testing
import Zones

@Suite(.timeLimit(.minutes(20))) struct ZoneFileValidationTests {
    /// Every rule of SPEC Z3 rejects the whole file and names the feature and the problem.
    @Test(arguments: [
        ("duplicate-ids.geojson", "1", "duplicate id: features #0, #1"),
        ("empty-collection.geojson", "file", "no features"),
        ("not-a-collection.geojson", "file", "not a GeoJSON FeatureCollection"),
        ("missing-id.geojson", "#1", "missing id"),
        ("self-intersection.geojson", "bowtie", "invalid geometry: Self-intersection at 0.5,0.5"),
        ("unclosed-ring.geojson", "open", "exterior ring: ring is not closed"),
        ("too-few-points.geojson", "thin", "too few points (3"),
        ("hole-outside-shell.geojson", "holey", "Hole lies outside shell"),
        ("out-of-range.geojson", "far", "position 1 (181.0,0.0) is out of range"),
        ("not-a-polygon.geojson", "rank", "geometry type Point is not Polygon or MultiPolygon"),
        ("malformed-coordinates.geojson", "bad", "malformed coordinates at coordinates[0][1]"),
        ("overlap.geojson", "a", "overlaps zone b by 44.69 ha"),
    ])
    func rejectsBrokenFile(file: String, subject: String, message: String) throws {
        let problems = try #require(try problemsLoading(TestData.fixture(file)))
        #expect(problems.count == 1)
        #expect(problems.first?.subject == subject)
        #expect(problems.first?.message.contains(message) == true, "\(problems)")
    }

    @Test func textThatIsNotJSONIsAParseError() {
        #expect {
            try ZoneFileLoader.load(path: TestData.fixture("not-json.geojson"))
        } throws: { error in
            guard case .notJSON(let reason) = error as? ZoneFileError else { return false }
            return reason.contains("line 2, column 1")
        }
    }

    @Test func missingFileIsUnreadable() {
        #expect {
            try ZoneFileLoader.load(path: TestData.fixture("no-such-file.geojson"))
        } throws: { error in
            if case .unreadable = error as? ZoneFileError { return true }
            return false
        }
    }

    /// Ring winding and repeated points are repaired, with a warning naming the feature.
    @Test func repairsWindingAndRepeatedPoints() throws {
        let loaded = try ZoneFileLoader.load(path: TestData.fixture("repairable.geojson"))
        let zone = try #require(loaded.zoneSet.zones.first)
        #expect(zone.geometry.polygonRings.first?.count == 5)
        #expect(loaded.warnings.map(\.subject) == ["cw"])
        #expect(loaded.warnings.first?.message.contains("winding of 1 ring(s) reversed") == true)
        #expect(loaded.warnings.first?.message.contains("1 repeated position(s) removed") == true)
    }

    /// Every problem of every feature is listed, not just the first.
    @Test func listsEveryProblem() throws {
        let text = """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "id": "x", "properties": {"name": "X"},
               "geometry": {"type": "Polygon", "coordinates": [[[0,0],[1,0],[1,1],[0,1]]]}},
              {"type": "Feature", "properties": {"name": "no id"},
               "geometry": {"type": "LineString", "coordinates": [[0,0],[1,1]]}},
              {"type": "Feature", "id": "x", "properties": {"name": "X again"},
               "geometry": {"type": "Polygon", "coordinates": [[[5,5],[6,5],[6,6],[5,5]]]}}
            ]}
            """
        let problems = try #require(try problemsLoading(text: text))
        #expect(problems.map(\.description) == [
            "#1: missing id: no \"id\" (feature id or properties.id)",
            "#1: geometry type LineString is not Polygon or MultiPolygon",
            "x: exterior ring: ring is not closed (first position 0.0,0.0 differs from last 0.0,1.0)",
            "x: duplicate id: features #0, #2 share it",
        ])
    }

    /// The Turf.js validity fixtures: every invalid polygon is rejected, every valid one accepted.
    @Test(.enabled(if: TestData.shared("invalid") != nil, "shared data missing: ../shared/data/invalid"))
    func turfFixturesAreJudgedAsGEOSJudgesThem() throws {
        let root = try #require(TestData.shared("invalid/turf-boolean-valid/test"))
        for polygonal in ["Polygon", "MultiPolygon"] {
            for verdict in ["true", "false"] {
                let folder = "\(root)/\(verdict)/\(polygonal)"
                for file in try FileManager.default.contentsOfDirectory(atPath: folder) {
                    let problems = try problemsLoading(text: String(contentsOfFile: "\(folder)/\(file)", encoding: .utf8),
                                                idProperty: nil, giveIds: true)
                    #expect((problems == nil) == (verdict == "true"), "\(polygonal)/\(file): \(problems ?? [])")
                }
            }
        }
        for file in ["hourglass", "issue-2627", "multi-polygon", "switzerlandKinked", "triple"] {
            let text = try String(contentsOfFile: TestData.shared("invalid/turf-kinks/test/in/\(file).geojson")!, encoding: .utf8)
            let problems = try #require(try problemsLoading(text: text, idProperty: nil, giveIds: true), "\(file)")
            #expect(problems.contains { $0.message.contains("Self-intersection") }, "\(file): \(problems)")
        }
    }

    @Test(.enabled(if: TestData.nycZonesAvailable, "shared data missing: ../shared/data/nyc/taxi_zones.geojson"))
    func loadsTheNYCTaxiZones() throws {
        let loaded = try ZoneFileLoader.load(path: TestData.shared("nyc/taxi_zones.geojson")!, options: TestData.nycOptions)
        #expect(loaded.zoneSet.zones.count == 263)
        #expect(loaded.zoneSet["132"]?.name == "JFK Airport")
        #expect(loaded.zoneSet.zones.map(\.id.text).prefix(3) == ["1", "2", "3"])
    }

    /// The NYC zones overlap by slivers (the largest 0.5 m²): a zero tolerance names them.
    @Test(.enabled(if: TestData.nycZonesAvailable, "shared data missing: ../shared/data/nyc/taxi_zones.geojson"))
    func zeroToleranceReportsTheNYCSlivers() throws {
        var options = TestData.nycOptions
        options.overlapToleranceSquareMetres = 0.1
        let problems = try #require(try problemsLoading(TestData.shared("nyc/taxi_zones.geojson")!, options: options))
        #expect(problems.count > 0 && problems.count < 134)
        #expect(problems.allSatisfy { $0.message.contains("overlaps zone") })
    }

    @Test(arguments: ["manhattan", "monaco"])
    func shippedZonesAreValidWithoutRepairs(city: String) throws {
        let loaded = try ZoneFileLoader.load(path: TestData.shipped(city))
        #expect(loaded.zoneSet.zones.count == (city == "manhattan" ? 69 : 9))
        #expect(loaded.warnings.isEmpty)
    }

    /// A name or id a dispatcher's screen cannot show as one line of text
    /// is refused, naming the feature; markup is text like any other (the
    /// map writes names as text, never as HTML).
    @Test(arguments: [
        (#""id": "a", "properties": {"name": "Line\nbreak"}"#, "a", "name holds the control character U+000A"),
        (#""id": "a", "properties": {"name": "Bell\u0007"}"#, "a", "name holds the control character U+0007"),
        (#""id": "a", "properties": {"name": "\#(String(repeating: "é", count: 201))"}"#, "a", "name too long: 201 characters, at most 200"),
        (#""id": "a\u0000b", "properties": {"name": "A"}"#, "#0", "id holds the control character U+0000"),
        (#""id": "\#(String(repeating: "z", count: 65))", "properties": {}"#, "#0", "id too long: 65 characters, at most 64"),
    ])
    func aNameOrIdThatIsNotOneLineOfTextIsRefused(members: String, subject: String, message: String) throws {
        let square = #""geometry": {"type": "Polygon", "coordinates": [[[0,0],[1,0],[1,1],[0,1],[0,0]]]}"#
        let problems = try #require(try problemsLoading(text: #"{"type": "FeatureCollection", "features": [{"type": "Feature", \#(members), \#(square)}]}"#))
        #expect(problems.map(\.subject) == [subject])
        #expect(problems.first?.message.hasPrefix(message) == true, "\(problems)")
    }

    @Test func markupInANameIsKeptAsText() throws {
        let name = #"<img src=x onerror="alert(1)">"#
        let text = #"{"type": "FeatureCollection", "features": [{"type": "Feature", "id": "a", "properties": {"name": "<img src=x onerror=\"alert(1)\">"}, "geometry": {"type": "Polygon", "coordinates": [[[0,0],[1,0],[1,1],[0,1],[0,0]]]}}]}"#
        let loaded = try ZoneFileLoader.load(document: try JSONParser.parse(text), options: ZoneFileOptions())
        #expect(loaded.zoneSet["a"]?.name == name)
    }

    // MARK: Helpers

    /// Wraps a lone Feature or geometry in a collection and gives every feature an id.
    private func numberingFeatures(_ document: JSONValue) -> JSONValue {
        let features: [JSONValue]
        switch document["type"] {
        case .string("FeatureCollection")?:
            guard case .array(let members)? = document["features"] else { return document }
            features = members
        case .string("Feature")?: features = [document]
        default: features = [.object(["type": .string("Feature"), "geometry": document])]
        }
        let numbered: [JSONValue] = features.enumerated().map { index, feature in
            guard case .object(let members) = feature else { return feature }
            return .object(members.merging(["id": .number(Double(index + 1))]) { _, new in new })
        }
        return .object(["type": .string("FeatureCollection"), "features": .array(numbered)])
    }

    private func problemsLoading(_ path: String, options: ZoneFileOptions = ZoneFileOptions()) throws -> [ZoneProblem]? {
        do {
            _ = try ZoneFileLoader.load(path: path, options: options)
            return nil
        } catch .invalid(let problems, _) {
            return problems
        }
    }

    /// Loads text; `giveIds` numbers features that lack an id (the Turf fixtures have none).
    private func problemsLoading(text: String, idProperty: String? = nil, giveIds: Bool = false) throws -> [ZoneProblem]? {
        let parsed = try JSONParser.parse(text)
        let document = giveIds ? numberingFeatures(parsed) : parsed
        do {
            _ = try ZoneFileLoader.load(document: document, options: ZoneFileOptions(idProperty: idProperty))
            return nil
        } catch .invalid(let problems, _) {
            return problems
        }
    }
}
