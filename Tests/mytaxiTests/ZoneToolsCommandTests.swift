import Foundation
import GeoKit
import JSONKit
import Testing

/// The planners' zone tools keep their contract: files in, files or standard
/// output out, exit 0 on success, 1 on a problem in the data, 2 when a file cannot be read.
@Suite(.timeLimit(.minutes(20))) struct ZoneToolsCommandTests {
    private static let fixtures = "Tests/ZoneToolsTests/Fixtures"

    private func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString)-\(name)").path
    }

    /// The repaired file goes to standard output, the report per feature to standard error.
    @Test func repairWritesTheFileAndNamesWhatItLeft() async throws {
        let result = try await CommandRunner.run(["zones", "repair", "\(Self.fixtures)/repair-mixed.geojson"])
        #expect(result.status == 1)
        guard case .array(let features)? = try JSONParser.parse(result.standardOutput)["features"] else {
            Issue.record("no features written"); return
        }
        #expect(features.count == 6)
        #expect(result.standardError.contains("cw: repaired: winding of 1 ring(s)"))
        #expect(result.standardError.contains("open: not repaired: exterior ring: ring is not closed"))
        #expect(result.standardError.contains("6 feature(s): 3 repaired, 2 not safe to repair"))
    }

    /// A valid file is written unchanged to -o and the command succeeds.
    @Test func repairOfAValidFileSucceeds() async throws {
        let output = temporaryPath("monaco.geojson")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let result = try await CommandRunner.run(["zones", "repair", "Zones/monaco/zones.geojson", "-o", output])
        #expect(result.status == 0)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.contains("9 feature(s): 0 repaired, 0 not safe to repair (left as they were), 9 unchanged"))
        let written = try JSONParser.parse(Data(contentsOf: URL(fileURLWithPath: output)))
        let original = try JSONParser.parse(Data(contentsOf: CommandRunner.packageRoot.appendingPathComponent("Zones/monaco/zones.geojson")))
        #expect(written == original)
    }

    @Test func repairExitsTwoWhenTheFileCannotBeRead() async throws {
        let result = try await CommandRunner.run(["zones", "repair", "no/such/file.geojson"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("cannot read no/such/file.geojson"))
    }

    /// Gaps and overlaps, one line each with area and place, then a summary; exit 1.
    @Test func coverageListsGapsAndOverlaps() async throws {
        let result = try await CommandRunner.run(["zones", "coverage", "\(Self.fixtures)/coverage-zones.geojson",
                                            "--boundary", "\(Self.fixtures)/coverage-boundary.geojson"])
        #expect(result.status == 1)
        #expect(result.lines.count == 3)
        #expect(result.lines[0].hasPrefix("gap: 89."))
        #expect(result.lines[1].hasPrefix("overlap a/b: 44."))
        #expect(result.lines[2].hasPrefix("zones cover 75.00 % of the boundary"))
        #expect(result.standardError.contains("coverage: finding gaps"))
    }

    @Test func coverageWritesGeoJSONForAMap() async throws {
        let result = try await CommandRunner.run(["zones", "coverage", "\(Self.fixtures)/coverage-zones.geojson",
                                            "--boundary", "\(Self.fixtures)/coverage-boundary.geojson", "--geojson"])
        let document = try JSONParser.parse(result.standardOutput)
        #expect(document["type"] == .string("FeatureCollection"))
        guard case .array(let features)? = document["features"] else { Issue.record("no features"); return }
        #expect(features.count == 2)
    }

    /// Zones that tile the boundary: exit 0.
    @Test func coverageOfATilingSucceeds() async throws {
        let result = try await CommandRunner.run(["zones", "coverage", "Tests/ZonesTests/Fixtures/grid-2x2.geojson",
                                            "--boundary", "Tests/ZonesTests/Fixtures/grid-2x2.geojson"])
        #expect(result.status == 0)
        #expect(result.lines.last?.contains("0 gap(s)") == true)
    }

    @Test func coverageRefusesANegativeMinimum() async throws {
        let result = try await CommandRunner.run(["zones", "coverage", "\(Self.fixtures)/coverage-zones.geojson",
                                            "--boundary", "\(Self.fixtures)/coverage-boundary.geojson", "--min-area=-1"])
        #expect(result.status != 0)
        #expect(result.standardError.contains("--min-area must be a non-negative number of square metres"))
    }

    /// One line per change in id order, then the summary; changes are not problems.
    @Test func diffListsTheChangesOfANewVersion() async throws {
        let result = try await CommandRunner.run(["zones", "diff", "Tests/ZonesTests/Fixtures/grid-2x2.geojson",
                                            "\(Self.fixtures)/diff-new.geojson"])
        #expect(result.status == 0)
        #expect(result.lines.count == 5)
        #expect(result.lines[0] == "renamed 1: \"Zone 1\" → \"Zone One\"")
        #expect(result.lines[1].hasPrefix("reshaped 2 \"Zone 2\": 89."))
        #expect(result.lines[2].hasPrefix("removed 3 \"Zone 3\": 89."))
        #expect(result.lines[3].hasPrefix("added 5 \"Zone 5\": 89."))
        #expect(result.lines[4] == "1 added, 1 removed, 1 renamed, 1 reshaped, 1 unchanged")
    }

    /// A file with problems is named, with exit 1.
    @Test func diffRefusesAnInvalidFile() async throws {
        let result = try await CommandRunner.run(["zones", "diff", "Tests/ZonesTests/Fixtures/grid-2x2.geojson",
                                            "Tests/ZonesTests/Fixtures/duplicate-ids.geojson"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("1: duplicate id"))
    }

    /// The simplified file on standard output, the vertex counts on standard error.
    @Test func simplifyWritesFewerVertices() async throws {
        let result = try await CommandRunner.run(["zones", "simplify", "Zones/manhattan/zones.geojson", "--tolerance", "20"])
        #expect(result.status == 0)
        guard case .array(let features)? = try JSONParser.parse(result.standardOutput)["features"] else {
            Issue.record("no features written"); return
        }
        #expect(features.count == 69)
        #expect(result.standardError.contains("simplify: noding the borders of 69 zones"))
        #expect(result.standardError.contains(" vertices before, "))
    }

    @Test func simplifyRefusesANonPositiveTolerance() async throws {
        let result = try await CommandRunner.run(["zones", "simplify", "Zones/manhattan/zones.geojson", "--tolerance", "0"])
        #expect(result.status != 0)
        #expect(result.standardError.contains("--tolerance must be a positive number of metres"))
    }

    /// A grid written to a file is a valid zone file with row-and-column ids.
    @Test func gridWritesAZoneFile() async throws {
        let output = temporaryPath("grid.geojson")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let result = try await CommandRunner.run(["zones", "grid", "--boundary", "\(Self.fixtures)/coverage-boundary.geojson",
                                            "--cell", "1000", "-o", output])
        #expect(result.status == 0)
        #expect(result.standardError.contains("grid: 2 of 2 rows"))
        let validate = try await CommandRunner.run(["zones", "validate", output])
        #expect(validate.status == 0)
        #expect(validate.lines.first?.contains("valid, ") == true)
    }

    /// Voronoi zones around the ranks, each with its rank's id.
    @Test func voronoiWritesAZonePerRank() async throws {
        let result = try await CommandRunner.run(["zones", "voronoi", "--boundary", "\(Self.fixtures)/coverage-boundary.geojson",
                                            "--sites", "\(Self.fixtures)/ranks.geojson"])
        #expect(result.status == 0)
        guard case .array(let features)? = try JSONParser.parse(result.standardOutput)["features"] else {
            Issue.record("no features written"); return
        }
        #expect(features.map { $0["id"] } == [.string("west"), .string("east")])
        #expect(result.standardError.contains("voronoi: 2 zones around 3 ranks"))
    }

    @Test func voronoiNamesSitesThatAreNotRanks() async throws {
        let result = try await CommandRunner.run(["zones", "voronoi", "--boundary", "\(Self.fixtures)/coverage-boundary.geojson",
                                            "--sites", "Zones/monaco/zones.geojson"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("monaco-ville: not a Point feature"))
    }

    /// A state-plane file comes out in WGS84, checked as `validate` does.
    @Test func importReprojectsAndValidates() async throws {
        let result = try await CommandRunner.run(["zones", "import", "\(Self.fixtures)/midtown-2263.geojson", "--from-crs", "EPSG:2263"])
        #expect(result.status == 0)
        #expect(result.standardError.contains("import: 4 features reprojected from EPSG:2263; valid, 4 zones"))
        let document = try JSONParser.parse(result.standardOutput)
        guard case .array(let features)? = document["features"],
              case .array(let rings)? = features.first?["geometry"]?["coordinates"],
              case .array(let ring)? = rings.first, case .array(let position)? = ring.first,
              case .number(let longitude)? = position.first else {
            Issue.record("no coordinates written"); return
        }
        #expect(longitude > -74.1 && longitude < -73.9)
    }

    @Test func importRefusesAnUnknownCRS() async throws {
        let result = try await CommandRunner.run(["zones", "import", "\(Self.fixtures)/midtown-2263.geojson", "--from-crs", "EPSG:999999"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("--from-crs EPSG:999999"))
    }

    /// An SVG of Manhattan with its roads, ids and names.
    @Test func renderWritesSVG() async throws {
        let output = temporaryPath("manhattan.svg")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let result = try await CommandRunner.run(["zones", "render", "Zones/manhattan/zones.geojson", "-o", output,
                                            "--graph", try DemoGraph.path(), "--labels"])
        #expect(result.status == 0, "\(result.standardError)")
        let svg = try String(contentsOfFile: output, encoding: .utf8)
        #expect(svg.contains("<title>230 Times Sq/Theatre District</title>"))
        #expect(svg.contains(">Times Sq/Theatre District</tspan>"))
        #expect(svg.contains("stroke=\"#9a9a9a\""))
    }

    static let rasterizerInstalled = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        .contains { FileManager.default.isExecutableFile(atPath: "\($0)/rsvg-convert") }

    /// A PNG through rsvg-convert.
    @Test(.enabled(if: rasterizerInstalled, "rsvg-convert is not installed (Debian package librsvg2-bin; make deps installs it)"))
    func renderWritesPNG() async throws {
        let output = temporaryPath("monaco.png")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let result = try await CommandRunner.run(["zones", "render", "Zones/monaco/zones.geojson", "-o", output, "--width", "400"])
        #expect(result.status == 0, "\(result.standardError)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: output))
        #expect(bytes.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
    }

    @Test func renderRefusesOtherFormats() async throws {
        let result = try await CommandRunner.run(["zones", "render", "Zones/monaco/zones.geojson", "-o", "monaco.pdf"])
        #expect(result.status != 0)
        #expect(result.standardError.contains("-o must name a .svg or .png file"))
    }
}
