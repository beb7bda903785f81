import Foundation
import GeoKit
import Testing
@testable import Places

/// Reading the named features of an OpenStreetMap file with libosmium.
@Suite(.timeLimit(.minutes(20))) struct NamedFeatureTests {
    @Test func namedNodesAndWaysAreReadWithTheirTagsAndPoints() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("places-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("town.osm").path
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <osm version="0.6">
              <node id="1" lat="43.73" lon="7.42"/>
              <node id="2" lat="43.731" lon="7.42"/>
              <node id="3" lat="43.731" lon="7.421">
                <tag k="name" v="Café de Paris"/><tag k="amenity" v="cafe"/>
              </node>
              <node id="4" lat="43.732" lon="7.421">
                <tag k="addr:housenumber" v="7"/><tag k="addr:street" v="Rue Grimaldi"/>
              </node>
              <node id="5" lat="43.733" lon="7.422"><tag k="amenity" v="bench"/></node>
              <way id="10">
                <nd ref="1"/><nd ref="2"/><nd ref="99"/>
                <tag k="highway" v="residential"/><tag k="name" v="Rue Grimaldi"/>
              </way>
              <way id="11"><nd ref="1"/><nd ref="2"/><tag k="highway" v="service"/></way>
            </osm>
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let features = try NamedFeature.read(contentsOf: path)
        #expect(features.map(\.id) == [3, 4, 10])
        #expect(features[0].kind == .node)
        #expect(features[0].tags == ["name": "Café de Paris", "amenity": "cafe"])
        #expect(features[0].points == [Coordinate(longitude: 7.421, latitude: 43.731)])
        #expect(features[2].kind == .way)
        #expect(features[2].points == [Coordinate(longitude: 7.42, latitude: 43.73), Coordinate(longitude: 7.42, latitude: 43.731)],
                "node 99 is not in the file")
    }

    @Test func aMissingFileIsNamedInTheError() {
        #expect {
            try NamedFeature.read(contentsOf: "/nonexistent/town.osm.pbf")
        } throws: { error in
            guard case let .unreadable(path, reason) = error as? PlaceError else { return false }
            return path == "/nonexistent/town.osm.pbf" && !reason.isEmpty
        }
    }
}
