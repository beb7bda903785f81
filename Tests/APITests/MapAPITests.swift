import Foundation
import GeoKit
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JSONKit
import Storage
import Routing
import Testing
import Zones
@testable import API

/// Issue 18: the dispatcher's live map is served by the service itself:
/// the page and its script from the API's resources, Leaflet from the
/// folder of Debian's `libjs-leaflet` (a page naming the package when it is
/// missing), and the zones it draws from `GET /v1/zones`.
@Suite(.timeLimit(.minutes(20))) struct MapAPITests {
    /// A folder standing in for Debian's Leaflet, with the two files the page loads.
    static func leafletFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mytaxi-leaflet-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "window.L = {};".write(to: folder.appendingPathComponent("leaflet.js"), atomically: true, encoding: .utf8)
        try ".leaflet-container {}".write(to: folder.appendingPathComponent("leaflet.css"), atomically: true, encoding: .utf8)
        return folder
    }

    @Test func thePageItsScriptAndLeafletAreServedWithoutAToken() async throws {
        let folder = try Self.leafletFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let harness = try await APIHarness(leafletDirectory: folder.path)
        try await harness.test { client in
            for (uri, type, content) in [
                ("/map", "text/html", "/map/leaflet/leaflet.js"), ("/map/map.js", "text/javascript", "/v1/push"),
                ("/map/map.css", "text/css", ".legend"),
                ("/map/leaflet/leaflet.js", "text/javascript", "window.L"), ("/map/leaflet/leaflet.css", "text/css", ".leaflet-container"),
            ] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .ok, "\(uri)")
                    #expect(response.headers[.contentType]?.hasPrefix(type) == true, "\(uri): \(response.headers[.contentType] ?? "")")
                    #expect(String(buffer: response.body).contains(content), "\(uri)")
                }
            }
            let other = try await client.call(.get, "/map/leaflet/leaflet.esm.js")
            #expect(other.status == .notFound)
        }
    }

    @Test func withoutLeafletThePageNamesTheDebianPackage() async throws {
        let harness = try await APIHarness(leafletDirectory: "/nonexistent/leaflet")
        try await harness.test { client in
            try await client.execute(uri: "/map", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(response.headers[.contentType]?.hasPrefix("text/html") == true)
                #expect(String(buffer: response.body).contains("apt-get install libjs-leaflet"))
            }
            let script = try await client.call(.get, "/map/leaflet/leaflet.js")
            #expect(script.status == .serviceUnavailable)
            #expect(script["detail"]?.contains("libjs-leaflet") == true)
        }
    }

    @Test func theZonesAreAFeatureCollectionWithIdsNamesAreasAndAPointInside() async throws {
        let harness = try await APIHarness()
        let token = try await harness.token(.dispatcher)
        let passenger = try await harness.token(.passenger)
        try await harness.test { client in
            let answer = try await client.call(.get, "/v1/zones", token: token)
            #expect(answer.status == .ok)
            #expect(answer.headers[.contentType] == "application/geo+json")
            #expect(answer["type"] == "FeatureCollection")
            var names: [String: String] = [:]
            var rings: [String: [Coordinate]] = [:]
            for feature in try answer.list("features") {
                let id = try #require(feature["id"]?.scalarText)
                names[id] = feature["properties"]?["name"]?.scalarText
                let polygons = try GeoJSONPolygons(geometry: feature["geometry"])
                #expect(polygons.type == "Polygon")
                rings[id] = polygons.polygons.first?.first
                let lon = try #require(feature["properties"]?["inside"]?["lon"]?.scalarText.flatMap(Double.init))
                let lat = try #require(feature["properties"]?["inside"]?["lat"]?.scalarText.flatMap(Double.init))
                #expect(harness.server.zones.current.zone(at: Coordinate(longitude: lon, latitude: lat))?.id.text == id, "a point inside zone \(id)")
            }
            #expect(names == ["161": "Midtown Center", "7": "Astoria"])
            #expect(rings["161"]?.contains(Coordinate(longitude: -74, latitude: 40.7)) == true)
            #expect(rings["7"]?.contains(Coordinate(longitude: -73.8, latitude: 40.8)) == true)
            let passengersArea = try await client.call(.get, "/v1/zones", token: passenger)
            #expect(passengersArea.status == .ok, "the passenger's app shows the service area")
            #expect(try passengersArea.list("features").count == 2)
            #expect(try await client.call(.get, "/v1/zones").status == .unauthorized)
        }
    }

    @Test func theMainRoadsAreDrawnOnceEachAndNoOtherRoad() async throws {
        let harness = try await APIHarness()
        let token = try await harness.token(.dispatcher)
        let graph = harness.server.roadRouter.graph
        let tails = graph.edgeTails()
        var main = Set<[Coordinate]>()
        for edge in 0..<graph.edgeCount {
            let ends = [graph.coordinates[Int(tails[edge])], graph.coordinates[Int(graph.edgeHead[edge])]]
            if [.primary, .secondary].contains(graph.edgeRoadClass[edge]) { main.insert(ends) }
        }
        let mainRoads = main
        let passenger = try await harness.token(.passenger)
        try await harness.test { client in
            let answer = try await client.call(.get, "/v1/roads", token: token)
            #expect(answer.status == .ok)
            let features = try answer.list("features")
            #expect(features.count == 1)
            guard case .array(let lines)? = features.first?["geometry"]?["coordinates"] else {
                throw APITestFailure("no MultiLineString coordinates")
            }
            let drawn = lines.compactMap { line -> [Coordinate]? in
                guard case .array(let points) = line else { return nil }
                return points.compactMap { point in
                    guard case .array(let pair) = point, pair.count == 2, case .number(let lon) = pair[0], case .number(let lat) = pair[1] else { return nil }
                    return Coordinate(longitude: lon, latitude: lat)
                }
            }
            #expect(!drawn.isEmpty)
            #expect(drawn.allSatisfy { mainRoads.contains($0) || mainRoads.contains($0.reversed()) }, "only main roads")
            #expect(Set(drawn.map { Set($0) }).count == drawn.count, "a two-way road once")
            #expect(Set(drawn.map { Set($0) }) == Set(mainRoads.map { Set($0) }), "every main road")
            #expect(try await client.call(.get, "/v1/roads", token: passenger).status == .ok, "the passenger's app draws the roads too")
        }
    }

    /// At street zoom the map writes the streets' names: every street in
    /// view is named, labels never crowd, a street's repeat far apart.
    @Test func streetNamesAreGivenForAStreetLevelView() async throws {
        let harness = try await APIHarness()
        let token = try await harness.token(.dispatcher)
        let passenger = try await harness.token(.passenger)
        let graph = harness.server.roadRouter.graph
        let west = graph.coordinates.map(\.longitude).min()!, south = graph.coordinates.map(\.latitude).min()!
        let box = "\(west - 0.001),\(south - 0.001),\(west + 0.006),\(south + 0.006)"
        let names = APIHarness.streetNames(of: graph), tails = graph.edgeTails()
        let inView = Set((0..<graph.edgeCount).compactMap { edge -> String? in
            let from = graph.coordinates[Int(tails[edge])], to = graph.coordinates[Int(graph.edgeHead[edge])]
            let lon = (from.longitude + to.longitude) / 2, lat = (from.latitude + to.latitude) / 2
            let inside = lon >= west - 0.001 && lon <= west + 0.006 && lat >= south - 0.001 && lat <= south + 0.006
            return inside ? names.name(ofEdge: edge) : nil
        })
        #expect(inView.count > 8, "the box holds several streets and avenues")
        try await harness.test { client in
            let answer = try await client.call(.get, "/v1/roads/names?bbox=\(box)", token: token)
            #expect(answer.status == .ok)
            var labels: [(name: String, at: Coordinate, angle: Double)] = []
            for feature in try answer.list("features") {
                guard case .string(let name)? = feature["properties"]?["name"], case .number(let angle)? = feature["properties"]?["angle"],
                      case .array(let pair)? = feature["geometry"]?["coordinates"], case .number(let lon) = pair[0], case .number(let lat) = pair[1]
                else { throw APITestFailure("not a named point: \(feature)") }
                labels.append((name, Coordinate(longitude: lon, latitude: lat), angle))
            }
            #expect(Set(labels.map(\.name)) == inView, "every street in view is named")
            #expect(labels.allSatisfy { abs($0.angle) <= 90 }, "no text reads upside down")
            #expect(labels.filter { $0.name.hasPrefix("W ") }.allSatisfy { abs($0.angle) < 15 }, "a street's text runs along it")
            for (index, label) in labels.enumerated() {
                for other in labels[(index + 1)...] {
                    let apart = label.at.haversineDistance(to: other.at)
                    #expect(apart >= StreetLabels.anyLabelSpacingMetres)
                    if other.name == label.name { #expect(apart >= StreetLabels.sameNameSpacingMetres) }
                }
            }
            let wide = try await client.call(.get, "/v1/roads/names?bbox=-74.1,40.7,-73.9,40.8", token: token)
            #expect(wide.status == .unprocessableContent)
            #expect(wide["detail"]?.contains("zoom in") == true)
            #expect(try await client.call(.get, "/v1/roads/names?bbox=0,0,0,0", token: token).status == .unprocessableContent, "an empty box")
            #expect(try await client.call(.get, "/v1/roads/names?bbox=-73.98,40.76,-73.99,95", token: token).status == .unprocessableContent)
            for bad in ["", "?bbox=1,2,3", "?bbox=a,b,c,d"] {
                #expect(try await client.call(.get, "/v1/roads/names\(bad)", token: token).status == .badRequest, "\(bad)")
            }
            #expect(try await client.call(.get, "/v1/roads/names?bbox=\(box)", token: passenger).status == .ok)
            #expect(try await client.call(.get, "/v1/roads/names?bbox=\(box)").status == .unauthorized)
        }
    }
}
