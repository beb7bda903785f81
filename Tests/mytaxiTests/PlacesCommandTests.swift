import Foundation
import JSONKit
import Testing

/// `mytaxi places search`, `reverse` and `check` keep their contract, on
/// the demo city's graph file (which `graph build` fills with the places
/// of Midtown's extract).
@Suite(.timeLimit(.minutes(20))) struct PlacesCommandTests {
    @Test func searchPrintsTheBestAnswersOnePerLine() async throws {
        let graph = try await DemoGraph.path()
        let result = try await CommandRunner.run(["places", "search", "--graph", graph, "350 fifth ave", "--limit", "2"])
        #expect(result.status == 0, "\(result.standardError)")
        let first = try #require(result.lines.first).split(separator: "\t").map(String.init)
        #expect(first.count == 4)
        #expect(first[1] == "address")
        #expect(first[3] == "350 5th Avenue, New York 10118")
        #expect(result.lines.count == 2)
    }

    @Test func searchNearAPointAndAsJSON() async throws {
        let graph = try await DemoGraph.path()
        let result = try await CommandRunner.run(["places", "search", "--graph", graph, "grand centrl", "--near", "-73.977,40.752",
                                                  "--json", "--limit", "1"])
        #expect(result.status == 0, "\(result.standardError)")
        let answer = try JSONParser.parse(try #require(result.lines.first))
        #expect(answer["name"]?.scalarText?.hasPrefix("Grand Central") == true)
        #expect(answer["distanceMetres"] != nil)
    }

    @Test func searchReadsQueriesFromStandardInputOneAnswerPerLine() async throws {
        let graph = try await DemoGraph.path()
        let result = try await CommandRunner.run(["places", "search", "--graph", graph],
                                                 input: "350 5th Avenue\nqqqqzzzz\nwest 42nd street\n")
        #expect(result.status == 0)
        let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 4, "\(lines)")
        #expect(lines[0].hasSuffix("350 5th Avenue, New York 10118"))
        #expect(lines[1].isEmpty)
        #expect(lines[2].hasSuffix("West 42nd Street"))
    }

    @Test func aQueryMatchingNothingExitsOne() async throws {
        let graph = try await DemoGraph.path()
        let result = try await CommandRunner.run(["places", "search", "--graph", graph, "qqqqzzzz"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("no place matches 'qqqqzzzz'"))
    }

    @Test func reverseNamesTheAddressOfAPoint() async throws {
        let graph = try await DemoGraph.path()
        let result = try await CommandRunner.run(["places", "reverse", "--graph", graph, "--at", "-73.98569,40.74818"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.lines.first?.hasPrefix("350 5th Avenue, New York 10118\t") == true)
        let far = try await CommandRunner.run(["places", "reverse", "--graph", graph, "--at", "-73.5,40.9"])
        #expect(far.status == 1)
        let bad = try await CommandRunner.run(["places", "reverse", "--graph", graph, "--at", "east"])
        #expect(bad.status == 2)
        #expect(bad.standardError.contains("--at must be LON,LAT"))
    }

    @Test func checkMeasuresTheTestSetAndFailsBelowTheBar() async throws {
        let graph = try await DemoGraph.path()
        let testSet = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("PlacesTests/Fixtures/midtown-queries.tsv").path
        let result = try await CommandRunner.run(["places", "check", "--graph", graph, testSet, "--at-least", "95"])
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(result.lines.contains { $0.hasPrefix("exact: ") && $0.hasSuffix("(100.0 %)") })
        #expect(result.lines.contains { $0.hasPrefix("search time: p50 ") })
        let strict = try await CommandRunner.run(["places", "check", "--graph", graph, testSet, "--at-least", "100"])
        #expect(strict.status == 1, "place and typo are below 100 %")
    }

    @Test func aGraphWithoutPlacesSaysHowToGetThem() async throws {
        let folder = try GraphCommandTests.temporaryFolder()
        let graph = folder.appendingPathComponent("synthetic.graph").path
        let build = try await CommandRunner.run(["graph", "build", "--synthetic-nodes", "200", "-o", graph, "--time-zone", "UTC"])
        #expect(build.status == 0, "\(build.standardError)")
        #expect(build.lines.contains("places: none (a synthetic city has no addresses)"))
        let result = try await CommandRunner.run(["places", "search", "--graph", graph, "broadway"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("holds no places: build it from an OpenStreetMap extract"))
    }
}
