import Foundation
import GeoKit
import Testing
@testable import Routing

/// Builds from the shared OSM extracts (`../shared/data`); each test skips,
/// saying which file is missing, when the data is absent.
@Suite(.timeLimit(.minutes(20))) struct RealExtractTests {
    static let dataFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("../shared/data").standardizedFileURL

    static func path(_ relative: String) -> String? {
        let path = dataFolder.appendingPathComponent(relative).path
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// (extract, minimum nodes kept) for the car profile.
    @Test(arguments: [("nyc/manhattan.osm.pbf", 5_000), ("monaco/monaco.osm.pbf", 10_000),
                      ("nyc/lower_manhattan_brooklyn.osm.pbf", 8_000)])
    func carGraphOfARealExtractIsPlausible(file: String, minimumNodes: Int) throws {
        guard let path = Self.path(file) else {
            print("skipped: \(Self.dataFolder.path)/\(file) is absent")
            return
        }
        let result = GraphBuilder.build(try OSMExtract(contentsOf: path), profile: CarProfile())
        let graph = result.graph
        #expect(graph.nodeCount >= minimumNodes)
        #expect(graph.edgeCount > graph.nodeCount)
        #expect(graph.edgeCount < 4 * graph.nodeCount)
        #expect(result.statistics.droppedNodes * 4 < result.statistics.nodesBeforeFilter,
                "the largest strongly connected component keeps most nodes")
        #expect(result.statistics.restrictionsApplied > 0)
        let lengths = graph.edgeLengthMetres
        #expect(lengths.allSatisfy { $0 >= 0 && $0 < 5_000 })
    }

    /// West 37th Street is one-way (westbound); West 34th Street is two-way.
    @Test func manhattanOneWayStreetHasEdgesInOneDirectionOnly() throws {
        guard let path = Self.path("nyc/manhattan.osm.pbf") else {
            print("skipped: \(Self.dataFolder.path)/nyc/manhattan.osm.pbf is absent")
            return
        }
        let extract = try OSMExtract(contentsOf: path)
        let result = GraphBuilder.build(extract, profile: CarProfile())
        /// Each edge of the street as [tail longitude, latitude, head longitude, latitude]:
        /// node copies made for turn restrictions share their node's position.
        func directedSegments(street: String) -> Set<[Double]> {
            let ways = Set(extract.ways.filter { $0.tags["name"] == street && $0.tags["highway"] != "footway" }.map(\.id))
            var segments: Set<[Double]> = []
            let graph = result.graph
            for node in 0..<graph.nodeCount {
                for edge in graph.edges(from: node) where ways.contains(result.edgeWayIDs[edge]) {
                    let tail = graph.coordinates[node], head = graph.coordinates[Int(graph.edgeHead[edge])]
                    segments.insert([tail.longitude, tail.latitude, head.longitude, head.latitude])
                }
            }
            return segments
        }
        func reversed(_ segment: [Double]) -> [Double] { [segment[2], segment[3], segment[0], segment[1]] }

        let oneWay = directedSegments(street: "West 37th Street")
        #expect(oneWay.count > 10)
        #expect(oneWay.allSatisfy { !oneWay.contains(reversed($0)) })
        #expect(oneWay.allSatisfy { $0[2] < $0[0] }, "westbound")
        let twoWay = directedSegments(street: "West 34th Street")
        #expect(twoWay.count > 10)
        #expect(twoWay.allSatisfy { twoWay.contains(reversed($0)) })
    }

    @Test func helsinkiWaysCutAtTheBoundaryAreSplitAndCounted() throws {
        guard let path = Self.path("helsinki/helsinki.osm.pbf") else {
            print("skipped: \(Self.dataFolder.path)/helsinki/helsinki.osm.pbf is absent")
            return
        }
        let extract = try OSMExtract(contentsOf: path)
        #expect(extract.waysWithMissingNodes == 191)
        #expect(extract.missingNodeReferences > 191)
        let result = GraphBuilder.build(extract, profile: FootProfile())
        #expect(result.graph.nodeCount > 1_000)
    }

    @Test func unreadableFilesGiveTheReadersMessage() throws {
        let notOSM = FileManager.default.temporaryDirectory.appendingPathComponent("not-osm-\(UUID()).osm.pbf")
        try Data("hello".utf8).write(to: notOSM)
        defer { try? FileManager.default.removeItem(at: notOSM) }
        for path in [notOSM.path, "/no/such/map.osm.pbf"] {
            #expect {
                _ = try OSMExtract(contentsOf: path)
            } throws: { error in
                guard case .unreadable(let failing, let reason)? = error as? OSMImportError else { return false }
                return failing == path && !reason.isEmpty
            }
        }
    }
}
