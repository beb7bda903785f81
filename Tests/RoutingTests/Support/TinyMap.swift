import Foundation
import GeoKit
@testable import Routing

/// A test map drawn as letters on a grid, the way OSRM's feature files draw
/// them: cells are separated by spaces, a letter is a node and `.` an empty
/// cell; one cell is `cellMetres` east or south, near longitude 0, latitude 0.
///
/// Ways are strings of letters; `?` in a way stands for a node the file does
/// not contain. The map is written as `.osm` XML to a temporary file and read
/// back with the real importer.
struct TinyMap {
    static let metresPerDegree = 2 * Double.pi * Coordinate.earthRadiusMetres / 360
    static let missingNodeID: Int64 = 999_999

    private(set) var positions: [Character: Coordinate] = [:]
    private var wayXML: [String] = []
    private var relationXML: [String] = []
    private var nodeTags: [Character: [String: String]] = [:]
    private var nextWayID: Int64 = 101

    init(_ grid: String, cellMetres: Double = 50) {
        for (row, line) in grid.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            for (column, token) in line.split(separator: " ").enumerated() {
                guard token.count == 1, let character = token.first, character.isLetter else { continue }
                let step = cellMetres / Self.metresPerDegree
                positions[character] = Coordinate(longitude: (Double(column) * step * 1e7).rounded() / 1e7,
                                                   latitude: (-Double(row) * step * 1e7).rounded() / 1e7)
            }
        }
    }

    /// Adds a way through `nodes` (letters, `?` for a missing node) and returns its id.
    @discardableResult
    mutating func way(_ nodes: String, _ tags: [String: String]) -> Int64 {
        let id = nextWayID
        nextWayID += 1
        let refs = nodes.map { "<nd ref=\"\($0 == "?" ? Self.missingNodeID : nodeID($0))\"/>" }.joined()
        wayXML.append("<way id=\"\(id)\">\(refs)\(tagXML(tags))</way>")
        return id
    }

    /// Tags node `letter` (say `highway=traffic_signals`).
    mutating func tagNode(_ letter: Character, _ tags: [String: String]) {
        nodeTags[letter] = tags
    }

    /// Adds a turn restriction relation from one way to another via a node.
    mutating func restriction(_ value: String, from: Int64, via: Character, to: Int64, key: String = "restriction",
                              extraTags: [String: String] = [:]) {
        let members = "<member type=\"way\" ref=\"\(from)\" role=\"from\"/>"
            + "<member type=\"node\" ref=\"\(nodeID(via))\" role=\"via\"/>"
            + "<member type=\"way\" ref=\"\(to)\" role=\"to\"/>"
        let tags = tagXML(extraTags.merging(["type": "restriction", key: value]) { $1 })
        relationXML.append("<relation id=\"\(relationXML.count + 1)\">\(members)\(tags)</relation>")
    }

    /// The map as OSM XML.
    var xml: String {
        let nodes = positions.sorted { nodeID($0.key) < nodeID($1.key) }.map { letter, position in
            "<node id=\"\(nodeID(letter))\" lat=\"\(String(format: "%.7f", position.latitude))\" "
                + "lon=\"\(String(format: "%.7f", position.longitude))\">\(tagXML(nodeTags[letter] ?? [:]))</node>"
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<osm version=\"0.6\" generator=\"TinyMap\">\n"
            + (nodes + wayXML + relationXML).joined(separator: "\n") + "\n</osm>\n"
    }

    /// Reads the map back through the importer, from a temporary `.osm` file removed afterwards.
    func extract() throws -> OSMExtract {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tinymap-\(UUID().uuidString).osm")
        defer { try? FileManager.default.removeItem(at: file) }
        try xml.write(to: file, atomically: true, encoding: .utf8)
        return try OSMExtract(contentsOf: file.path)
    }

    /// Builds the map's graph for `profile`.
    func build(_ profile: any RoutingProfile = CarProfile()) throws -> GraphBuildResult {
        GraphBuilder.build(try extract(), profile: profile)
    }

    /// The letter at a graph coordinate.
    func letter(at coordinate: Coordinate) -> Character? {
        positions.first { $0.value == coordinate }?.key
    }

    private func nodeID(_ letter: Character) -> Int64 { Int64(letter.asciiValue!) }

    private func tagXML(_ tags: [String: String]) -> String {
        tags.sorted { $0.key < $1.key }.map { "<tag k=\"\($0.key)\" v=\"\($0.value)\"/>" }.joined()
    }
}

/// The fastest route between two letters of a ``TinyMap`` on a built graph
/// (plain Dijkstra; split copies of a node count as the node).
struct TinyRoute: Equatable, CustomStringConvertible {
    var letters: String
    var durationMs: Int

    var description: String { "\(letters) in \(durationMs) ms" }

    init?(_ graph: RoadGraph, on map: TinyMap, from source: Character, to target: Character) {
        let count = graph.nodeCount
        var distance = [Int](repeating: .max, count: count)
        var previous = [Int](repeating: -1, count: count)
        var done = [Bool](repeating: false, count: count)
        for node in 0..<count where graph.coordinates[node] == map.positions[source] { distance[node] = 0 }
        while let node = (0..<count).filter({ !done[$0] && distance[$0] < .max }).min(by: { distance[$0] < distance[$1] }) {
            done[node] = true
            if graph.coordinates[node] == map.positions[target] {
                var path: [Character] = []
                var step = node
                while step >= 0 {
                    path.append(map.letter(at: graph.coordinates[step]) ?? "*")
                    step = previous[step]
                }
                letters = String(path.reversed())
                durationMs = distance[node]
                return
            }
            for edge in graph.edges(from: node) {
                let head = Int(graph.edgeHead[edge])
                let candidate = distance[node] + Int(graph.edgeDurationMs[edge])
                if candidate < distance[head] {
                    distance[head] = candidate
                    previous[head] = node
                }
            }
        }
        return nil
    }
}
