import Foundation
import Testing

/// The `mytaxi graph` commands keep their contract: arguments, summary lines, exit status.
@Suite(.timeLimit(.minutes(20))) struct GraphCommandTests {
    /// Two blocks of residential streets around a one-way street, as OSM XML.
    static let map = """
        <?xml version="1.0" encoding="UTF-8"?>
        <osm version="0.6" generator="test">
        <node id="1" lat="0.0000000" lon="0.0000000"/>
        <node id="2" lat="0.0000000" lon="0.0010000"/>
        <node id="3" lat="-0.0010000" lon="0.0000000"/>
        <node id="4" lat="-0.0010000" lon="0.0010000"/>
        <way id="10"><nd ref="1"/><nd ref="2"/><tag k="highway" v="residential"/><tag k="oneway" v="yes"/></way>
        <way id="11"><nd ref="2"/><nd ref="4"/><nd ref="3"/><nd ref="1"/><tag k="highway" v="residential"/></way>
        </osm>
        """

    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("graph-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func buildPrintsTheSummaryAndInfoDescribesTheFile() async throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let map = folder.appendingPathComponent("block.osm")
        try Self.map.write(to: map, atomically: true, encoding: .utf8)
        let graph = folder.appendingPathComponent("block.graph").path

        let build = try await CommandRunner.run(["graph", "build", map.path, "-o", graph, "--profile", "car"])
        #expect(build.status == 0)
        #expect(build.lines.prefix(3) == ["nodes: 4", "edges: 7",
                                          "dropped nodes: 0 (outside the largest strongly connected component)"])
        #expect(build.lines.contains("restrictions: 0 applied, 0 skipped"))
        #expect(build.lines.contains { $0.hasPrefix("build time: ") })
        #expect(build.lines.contains { $0.hasPrefix("file: \(graph), ") && $0.hasSuffix(" bytes") })
        #expect(build.standardError.contains("reading \(map.path)"))

        let info = try await CommandRunner.run(["graph", "info", graph])
        #expect(info.status == 0)
        #expect(info.lines.contains("profile: car"))
        #expect(info.lines.contains { $0.hasPrefix("source: block.osm, \(Self.map.utf8.count) bytes, fnv1a64 ") })
        #expect(info.lines.contains("nodes: 4"))
        #expect(info.lines.contains("bounding box: [0.0, -0.001, 0.001, 0.0]"))
        #expect(info.lines.contains {
            $0.hasPrefix("sections: profile, coords, firstedg, edgehead, duration, lengthm, roadclas, lanecls, signals, cch (")
        })
    }

    /// With --zones, every edge learns its zone and the file carries the two zone sections.
    @Test func buildWithZonesStoresTheZoneOfEachEdge() async throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let map = folder.appendingPathComponent("block.osm")
        try Self.map.write(to: map, atomically: true, encoding: .utf8)
        let zones = folder.appendingPathComponent("zones.geojson")
        try """
            {"type": "FeatureCollection", "features": [{"type": "Feature", "id": "block", "properties": {"name": "Block"},
             "geometry": {"type": "Polygon", "coordinates": [[[-0.01, -0.01], [0.01, -0.01], [0.01, 0.01], [-0.01, 0.01], [-0.01, -0.01]]]}}]}
            """.write(to: zones, atomically: true, encoding: .utf8)
        let graph = folder.appendingPathComponent("block.graph").path

        let build = try await CommandRunner.run(["graph", "build", map.path, "-o", graph, "--zones", zones.path])
        #expect(build.status == 0, "\(build.standardError)")
        #expect(build.lines.contains("zones: 1 zones, 7 edges inside one, 0 outside"))
        let info = try await CommandRunner.run(["graph", "info", graph])
        #expect(info.lines.contains { $0.contains("edgezone") && $0.contains("zoneids") })
    }

    /// A synthetic city goes through the same build: about the nodes asked
    /// for, the usual summary, and the same seed writes the same file.
    @Test func buildDrawsASyntheticCityOfTheSizeAsked() async throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = folder.appendingPathComponent("first.graph").path, second = folder.appendingPathComponent("second.graph").path
        let build = try await CommandRunner.run(["graph", "build", "--synthetic-nodes", "3000", "--seed", "5", "-o", first])
        #expect(build.status == 0, "\(build.standardError)")
        #expect(build.standardError.contains("drawing a synthetic city of about 3000 nodes, seed 5"))
        let nodes = build.lines.first { $0.hasPrefix("nodes: ") }.flatMap { Int($0.dropFirst("nodes: ".count)) }
        #expect(nodes.map { $0 > 2_500 && $0 < 3_500 } == true, "\(build.lines)")
        #expect(build.lines.contains { $0.hasPrefix("dropped nodes: ") })
        #expect(build.lines.contains { $0.hasPrefix("file: \(first), ") })

        #expect(try await CommandRunner.run(["graph", "build", "--synthetic-nodes", "3000", "--seed", "5", "-o", second]).status == 0)
        #expect(FileManager.default.contents(atPath: first) == FileManager.default.contents(atPath: second))
        let info = try await CommandRunner.run(["graph", "info", first])
        #expect(info.status == 0)
        #expect(info.lines.contains("nodes: \(nodes ?? 0)"))
    }

    @Test func aMapAndASyntheticCityExcludeEachOther() async throws {
        let both = try await CommandRunner.run(["graph", "build", "map.osm", "--synthetic-nodes", "1000", "-o", "x.graph"])
        #expect(both.status == 2)
        #expect(both.standardError.contains("a map file and --synthetic-nodes exclude each other"))
        let neither = try await CommandRunner.run(["graph", "build", "-o", "x.graph"])
        #expect(neither.status == 2)
        #expect(neither.standardError.contains("give a map file, or --synthetic-nodes N for a synthetic city"))
        let tiny = try await CommandRunner.run(["graph", "build", "--synthetic-nodes", "5", "-o", "x.graph"])
        #expect(tiny.status == 2)
        #expect(tiny.standardError.contains("--synthetic-nodes 5 is out of range"))
    }

    @Test func buildExitsTwoWhenTheMapCannotBeRead() async throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await CommandRunner.run(["graph", "build", "no/such/map.osm.pbf", "-o", folder.appendingPathComponent("x.graph").path])
        #expect(result.status == 2)
        #expect(result.standardError.contains("cannot read OSM file no/such/map.osm.pbf"))
        let line = result.standardError.split(separator: "\n").first { $0.hasPrefix("cannot read") } ?? ""
        #expect(line.components(separatedBy: "no/such/map.osm.pbf").count == 2, "the path once: \(line)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("x.graph").path))
    }

    /// A graph file that is not there is named once, with the reason.
    @Test func infoOnAMissingGraphNamesThePathOnce() async throws {
        let result = try await CommandRunner.run(["graph", "info", "no/such/city.graph"])
        #expect(result.status != 0)
        let line = result.standardError.split(separator: "\n").first ?? ""
        #expect(line.hasPrefix("no/such/city.graph: cannot read"), "\(line)")
        #expect(line.components(separatedBy: "no/such/city.graph").count == 2, "the path once: \(line)")
    }

    @Test func unknownProfileIsABadArgument() async throws {
        let result = try await CommandRunner.run(["graph", "build", "map.osm", "-o", "x.graph", "--profile", "bicycle"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("unknown profile 'bicycle': choose car or foot"))
    }

    @Test func infoExitsTwoForAFileThatIsNotAGraph() async throws {
        let result = try await CommandRunner.run(["graph", "info", "Package.swift"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("Package.swift: not a mytaxi graph file (bad magic number)"))
    }
}
