import Foundation
import GeoKit
import JSONKit
import Testing

/// The `mytaxi zones` commands keep their contract: arguments, output lines, exit status.
@Suite(.timeLimit(.minutes(20))) struct ZonesCommandTests {
    @Test func validateSummarisesAValidFileAndExitsZero() async throws {
        let result = try await CommandRunner.run(["zones", "validate", "Zones/manhattan/zones.geojson"])
        #expect(result.status == 0)
        #expect(result.lines.count == 1)
        #expect(result.lines[0].hasPrefix("Zones/manhattan/zones.geojson: valid, 69 zones (64 Polygon, 5 MultiPolygon)"))
    }

    @Test func validateListsOneLinePerProblemAndExitsOne() async throws {
        let result = try await CommandRunner.run(["zones", "validate", "Tests/ZonesTests/Fixtures/duplicate-ids.geojson"])
        #expect(result.status == 1)
        #expect(result.lines == ["1: duplicate id: features #0, #1 share it"])
    }

    @Test func validateExitsTwoWhenTheFileCannotBeReadOrParsed() async throws {
        let missing = try await CommandRunner.run(["zones", "validate", "no/such/file.geojson"])
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("cannot read no/such/file.geojson"))
        #expect(missing.standardError.components(separatedBy: "no/such/file.geojson").count == 2, "the path once: \(missing.standardError)")
        let broken = try await CommandRunner.run(["zones", "validate", "Tests/ZonesTests/Fixtures/not-json.geojson"])
        #expect(broken.status == 2)
        #expect(broken.standardError.contains("not valid JSON: line 2, column 1"))
    }

    @Test func validateJSONReportsProblemsWithTheirIds() async throws {
        let result = try await CommandRunner.run(["zones", "validate", "--json", "Tests/ZonesTests/Fixtures/overlap.geojson"])
        #expect(result.status == 1)
        let report = try JSONParser.parse(result.standardOutput)
        #expect(report["valid"] == .bool(false))
        guard case .array(let problems)? = report["problems"] else { Issue.record("no problems array"); return }
        #expect(problems.first?["id"] == .string("a"))
        #expect(problems.first?["problem"]?.scalarText?.hasPrefix("overlaps zone b") == true)
    }

    @Test func validateReadsIdsFromTheNamedProperty() async throws {
        let result = try await CommandRunner.run(["zones", "validate", "--json", "--id-property", "name",
                                            "Zones/monaco/zones.geojson"])
        #expect(result.status == 0)
        #expect(try JSONParser.parse(result.standardOutput)["zones"] == .number(9))
    }

    /// One output line per input line: the id, or empty when outside or not a point.
    @Test func lookupAnswersEveryLine() async throws {
        let input = "-73.9855,40.7580\n-74.02,40.75\nnot a point\n -73.9654 , 40.7829 \n\n-74.0445,40.6892"
        let result = try await CommandRunner.run(["zones", "lookup", "--zones", "Zones/manhattan/zones.geojson"], input: input)
        #expect(result.status == 0)
        #expect(result.lines == ["230", "", "", "43", "", "103"])
        #expect(result.standardError.contains("line 3: expected `lon,lat`"))
    }

    @Test func lookupStreamsManyLines() async throws {
        let input = String(repeating: "7.4235,43.7384\n7.40,43.70\n", count: 50_000)
        let result = try await CommandRunner.run(["zones", "lookup", "--zones", "Zones/monaco/zones.geojson"], input: input)
        #expect(result.lines.count == 100_000)
        #expect(result.lines.prefix(2) == ["monte-carlo", ""])
        #expect(Set(result.lines) == ["monte-carlo", ""])
    }

    @Test func lookupRefusesAnInvalidZoneFile() async throws {
        let result = try await CommandRunner.run(["zones", "lookup", "--zones", "Tests/ZonesTests/Fixtures/overlap.geojson"],
                                           input: "7.4,43.7\n")
        #expect(result.status == 1)
        #expect(result.standardError.contains("a: overlaps zone b"))
    }

    @Test func neighboursListsEachZoneInIdOrder() async throws {
        let result = try await CommandRunner.run(["zones", "neighbours", "--zones", "Zones/monaco/zones.geojson"])
        #expect(result.status == 0)
        #expect(result.lines.count == 9)
        #expect(result.lines.contains("monaco-ville: fontvieille, la-condamine"))
        let within = try await CommandRunner.run(["zones", "neighbours", "--zones", "Zones/monaco/zones.geojson", "--within", "100"])
        #expect(within.lines.contains("monaco-ville: fontvieille (0 m), jardin-exotique (86 m), la-condamine (0 m)"))
    }

    @Test func badArgumentsAreRefusedWithUsage() async throws {
        let result = try await CommandRunner.run(["zones", "neighbours", "--zones", "Zones/monaco/zones.geojson", "--within=-5"])
        #expect(result.status != 0)
        #expect(result.standardError.contains("--within must be a non-negative number of metres"))
    }

    @Test func helpListsTheZoneCommands() async throws {
        let result = try await CommandRunner.run(["--help"])
        #expect(result.status == 0)
        for command in ["zones"] { #expect(result.standardOutput.contains(command)) }
        let zones = try await CommandRunner.run(["zones", "--help"])
        for command in ["validate", "lookup", "neighbours", "repair", "coverage", "diff", "simplify", "grid", "voronoi", "import", "render", "publish"] { #expect(zones.standardOutput.contains(command)) }
    }
}
