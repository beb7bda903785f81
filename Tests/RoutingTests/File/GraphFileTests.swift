import Foundation
import GeoKit
import Testing
@testable import Routing

@Suite(.timeLimit(.minutes(20))) struct GraphFileTests {
    static func sampleBuild() throws -> GraphBuildResult {
        var map = TinyMap("""
            a . . b
            . . . .
            c . . d
            """)
        map.way("ab", ["highway": "primary", "oneway": "yes"])
        map.way("bdca", ["highway": "residential"])
        return try map.build()
    }

    /// A fresh path in the temporary directory; the caller removes the file.
    static func temporaryFile() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("graphfile-\(UUID().uuidString).graph")
    }

    static func written(extra: [String: [UInt8]] = [:]) throws -> (url: URL, result: GraphBuildResult) {
        let result = try sampleBuild()
        let url = temporaryFile()
        try GraphFile.write(graph: result.graph, profile: "car", extraSections: extra, to: url)
        return (url, result)
    }

    @Test func roundTripGivesBackTheGraphProfileAndExtraSections() throws {
        let result = try Self.sampleBuild()
        let url = Self.temporaryFile()
        defer { try? FileManager.default.removeItem(at: url) }
        let extra = [GraphFile.wayIDSection: GraphFile.bytes(of: result.edgeWayIDs), "cch.ord": [1, 2, 3]]
        try GraphFile.write(graph: result.graph, profile: "car", extraSections: extra, to: url)
        let contents = try GraphFile.read(from: url)
        #expect(contents.graph == result.graph)
        #expect(contents.profileName == "car")
        #expect(contents.extraSections == extra)
        let wayIDs = try GraphFile.array(of: Int64.self, from: contents.extraSections[GraphFile.wayIDSection]!,
                                         section: GraphFile.wayIDSection)
        #expect(wayIDs == result.edgeWayIDs)
    }

    /// Lane classes are part of the graph; the zone of each edge travels in
    /// two extra sections and comes back equal; a graph without them has none.
    @Test func laneClassesAndEdgeZonesRoundTrip() throws {
        var map = TinyMap("""
            a . . b
            . . . .
            c . . d
            """)
        map.way("ab", ["highway": "primary", "oneway": "yes", "lanes": "3"])
        map.way("bdca", ["highway": "residential", "lanes": "2"])
        map.way("ad", ["highway": "service"])
        let graph = try map.build().graph
        #expect(Set(graph.edgeLaneClass) == [.wide, .narrow, .untagged])
        let east = map.positions["b"]!.longitude
        let zones = EdgeZones(graph: graph, zoneIDs: ["west", "east"]) { $0.longitude > east / 2 ? 1 : 0 }
        #expect(zones.zoneIDs == ["west", "east"] || zones.zoneIDs == ["east", "west"])

        let url = Self.temporaryFile()
        defer { try? FileManager.default.removeItem(at: url) }
        try GraphFile.write(graph: graph, profile: "car", extraSections: zones.sections, to: url)
        let contents = try GraphFile.read(from: url)
        #expect(contents.graph == graph)
        #expect(try EdgeZones(sections: contents.extraSections, edgeCount: graph.edgeCount) == zones)

        let plain = try Self.written()
        defer { try? FileManager.default.removeItem(at: plain.url) }
        #expect(try EdgeZones(sections: GraphFile.read(from: plain.url).extraSections, edgeCount: plain.result.graph.edgeCount) == nil)
        #expect(throws: GraphFileError.missingSection(EdgeZones.idsSection)) {
            try EdgeZones(sections: [EdgeZones.edgeSection: zones.sections[EdgeZones.edgeSection]!], edgeCount: graph.edgeCount)
        }
        #expect(throws: GraphFileError.self) {
            try EdgeZones(sections: zones.sections, edgeCount: graph.edgeCount + 1)
        }
    }

    @Test func payloadsStartEightByteAligned() throws {
        let (url, _) = try Self.written(extra: ["odd": [1, 2, 3]])
        defer { try? FileManager.default.removeItem(at: url) }
        let bytes = [UInt8](try Data(contentsOf: url))
        var offset = 16
        while offset < bytes.count {
            #expect(offset % 8 == 0)
            let length = bytes[offset + 8..<offset + 16].reversed().reduce(0) { $0 << 8 | Int($1) }
            offset += 16 + length + GraphFile.padding(length)
        }
        #expect(offset == bytes.count)
    }

    /// A damaged file fails with an error naming the problem.
    @Test func corruptFilesGiveErrorsNamingTheProblem() throws {
        let (url, _) = try Self.written()
        defer { try? FileManager.default.removeItem(at: url) }
        let good = [UInt8](try Data(contentsOf: url))
        func reading(_ bytes: [UInt8]) -> GraphFileError? {
            let damaged = Self.temporaryFile()
            defer { try? FileManager.default.removeItem(at: damaged) }
            try? Data(bytes).write(to: damaged)
            return Self.readError(damaged)
        }
        var badMagic = good
        badMagic[0] = UInt8(ascii: "X")
        #expect(reading(badMagic) == .badMagic)
        #expect(reading(Array("hello".utf8)) == .badMagic)
        var newer = good
        newer[8] = 9
        #expect(reading(newer) == .unsupportedVersion(found: 9, supported: GraphFile.formatVersion))
        #expect(reading(newer)?.description.contains("newer mytaxi") == true)
        // A version 2 file (before graphs always carried their speed profile) is refused with how to rebuild it.
        var older = good
        older[8] = 2
        let olderError = try #require(reading(older))
        #expect(olderError == .unsupportedVersion(found: 2, supported: GraphFile.formatVersion))
        #expect(olderError.description.contains("older mytaxi"))
        #expect(olderError.description.contains("mytaxi graph build MAP.osm.pbf -o CITY.graph --time-zone NAME"))
        #expect(reading(Array(good.prefix(12))) == .truncatedHeader)
        #expect(reading(Array(good.dropLast(5))) == .truncatedSection("signals"))
        #expect(reading(Array(good.prefix(16 + 16 + 8 + 16 + 4))) == .truncatedSection("coords"))

        var headOutOfRange = good
        let headOffset = try #require(Self.payloadOffset(of: "edgehead", in: good))
        headOutOfRange[headOffset] = 200
        #expect(reading(headOutOfRange) == .inconsistentSection("edgehead", detail: "head 200 is not one of the 4 nodes"))

        var renamed = good
        let coordinates = try #require(Self.payloadOffset(of: "coords", in: good))
        renamed[coordinates - 16] = UInt8(ascii: "k")
        #expect(reading(renamed) == .missingSection("coords"))

        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID()).graph")
        guard case .io(let path, _)? = Self.readError(missing) else {
            Issue.record("a missing file must give an I/O error")
            return
        }
        #expect(path == missing.path)
        #expect(GraphFileError.truncatedSection("coords").description == "graph file is truncated in section coords")
    }

    /// Found writing the graph-file fuzz target: a node whose position is a
    /// NaN, infinite or off the Earth passed the reading and trapped in the
    /// router's load, turning the snapper's grid size into an integer. It is
    /// refused by name instead.
    @Test(arguments: [Double.nan, .infinity, 1e300, 180.5, -200])
    func aNodeThatIsNotAWGS84PositionIsRefused(longitude: Double) throws {
        let (url, _) = try Self.written()
        defer { try? FileManager.default.removeItem(at: url) }
        var bytes = [UInt8](try Data(contentsOf: url))
        let coordinates = try #require(Self.payloadOffset(of: "coords", in: bytes))
        withUnsafeBytes(of: longitude.bitPattern.littleEndian) { bytes.replaceSubrange(coordinates..<coordinates + 8, with: $0) }
        let error = bytes.withUnsafeBytes { raw in Result { () throws(GraphFileError) in try GraphFile.contents(of: raw) } }
        guard case .failure(.inconsistentSection("coords", let detail)) = error else {
            Issue.record("a node at longitude \(longitude) must be refused, not \(error)")
            return
        }
        #expect(detail.hasPrefix("node 0 at ") && detail.hasSuffix(" is not a WGS84 position"))
    }

    /// The error reading `url` gives, or nil when it reads.
    static func readError(_ url: URL) -> GraphFileError? {
        do {
            _ = try GraphFile.read(from: url)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: ["", "too-long-name", "coords", "prof\u{e9}"])
    func rejectsInvalidExtraSectionNames(name: String) throws {
        let result = try Self.sampleBuild()
        #expect(throws: GraphFileError.invalidSectionName(name)) {
            try GraphFile.write(graph: result.graph, profile: "car", extraSections: [name: [1]], to: Self.temporaryFile())
        }
    }

    /// The payload offset of section `name`, walking the headers.
    static func payloadOffset(of name: String, in bytes: [UInt8]) -> Int? {
        var offset = 16
        while offset + 16 <= bytes.count {
            let sectionName = String(decoding: bytes[offset..<offset + 8].prefix { $0 != 0 }, as: UTF8.self)
            let length = bytes[offset + 8..<offset + 16].reversed().reduce(0) { $0 << 8 | Int($1) }
            if sectionName == name { return offset + 16 }
            offset += 16 + length + GraphFile.padding(length)
        }
        return nil
    }
}

@Suite(.timeLimit(.minutes(20))) struct GraphSourceTests {
    @Test func describesAFileAndRoundTripsThroughItsSection() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("source-\(UUID()).osm")
        try Data("a".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let source = try GraphSource(describing: file.path)
        #expect(source.fileName == file.lastPathComponent)
        #expect(source.byteCount == 1)
        #expect(source.checksum == 0xaf63_dc4c_8601_ec8c)
        #expect(try GraphSource(sectionPayload: source.sectionPayload) == source)
        #expect(String(decoding: source.sectionPayload, as: UTF8.self) == "fnv1a64:af63dc4c8601ec8c 1 \(file.lastPathComponent)")
    }

    @Test func rejectsAMalformedSection() {
        #expect(throws: GraphFileError.inconsistentSection("source", detail: "expected `fnv1a64:HEX BYTES NAME`")) {
            try GraphSource(sectionPayload: Array("md5:xyz".utf8))
        }
    }
}
