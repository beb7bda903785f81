import Foundation
import GeoKit
import Testing
import Zones
import ZoneTools

@Suite(.timeLimit(.minutes(20))) struct ZoneMapSVGTests {
    private let monaco = Result { try ZoneFileLoader.load(path: TestData.shipped("monaco")).zoneSet }

    /// One filled path per zone, titled with id and name, and its id written inside it.
    @Test func drawsEveryZoneWithItsId() throws {
        let svg = try ZoneMapSVG(zoneSet: try monaco.get(), labels: false).text
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1200\""))
        #expect(svg.hasSuffix("</svg>"))
        #expect(svg.components(separatedBy: "<path d=").count - 1 == 9)
        #expect(svg.contains("<title>monaco-ville Monaco-Ville</title>"))
        #expect(svg.contains(">monte-carlo</tspan>"))
        #expect(!svg.contains(">Monte-Carlo</tspan>"))
    }

    /// With labels, names follow the ids, escaped for XML.
    @Test func labelsAddTheNames() throws {
        let zones = ZoneSet(zones: [Zone(id: "1", name: "Bed & <Breakfast>",
                                         geometry: try Geometry.rectangle(BoundingBox(minX: 7.4, minY: 43.7, maxX: 7.41, maxY: 43.71)))])
        let svg = try ZoneMapSVG(zoneSet: zones, labels: true).text
        #expect(svg.contains(">Bed &amp; &lt;Breakfast&gt;</tspan>"))
    }

    /// A zone at the picture's edge with a long name keeps its label whole
    /// inside the picture: the label moves in rather than being cut.
    @Test func labelsStayInsideThePicture() throws {
        let zones = ZoneSet(zones: [
            Zone(id: "west", name: "A very long name for the westernmost sliver of the city",
                 geometry: try Geometry.rectangle(BoundingBox(minX: 7.400, minY: 43.70, maxX: 7.401, maxY: 43.71))),
            Zone(id: "east", name: "East",
                 geometry: try Geometry.rectangle(BoundingBox(minX: 7.401, minY: 43.70, maxX: 7.45, maxY: 43.71))),
        ])
        let svg = try ZoneMapSVG(zoneSet: zones, labels: true, width: 600).text
        let west = try #require(svg.components(separatedBy: "<text transform=\"translate(").dropFirst().first)
        let x = try #require(Double(west.prefix { $0 != "," }))
        let halfWidth = ZoneMapSVG.textWidth("A very long name for the westernmost sliver of the city", fontSize: 9) / 2
        #expect(x - halfWidth >= 0, "the label starts inside the picture: x \(x), half width \(halfWidth)")
    }

    /// No two zones sharing a border get the same colour in Manhattan.
    @Test func neighboursHaveDifferentColours() throws {
        let zoneSet = try ZoneFileLoader.load(path: TestData.shipped("manhattan")).zoneSet
        let svg = try ZoneMapSVG(zoneSet: zoneSet, labels: false).text
        let neighbours = try ZoneNeighbours(zoneSet: zoneSet)
        var fill: [String: String] = [:]
        for line in svg.split(separator: "\n") where line.hasPrefix("<path d=\"M") && line.contains("<title>") {
            let colour = line.split(separator: "fill=\"")[1].prefix(7)
            let title = line.split(separator: "<title>")[1].split(separator: " ")[0]
            fill[String(title)] = String(colour)
        }
        #expect(fill.count == 69)
        for zone in zoneSet.zones {
            for neighbour in neighbours[zone.id] {
                #expect(fill[zone.id.text] != fill[neighbour.id.text], "\(zone.id) and \(neighbour.id)")
            }
        }
    }

    /// Roads are drawn beneath the zones, in one path.
    @Test func roadsGoBeneathTheZones() throws {
        let roads: [ZoneMapSVG.RoadSegment] = [(Coordinate(longitude: 7.41, latitude: 43.73), Coordinate(longitude: 7.42, latitude: 43.74))]
        let svg = try ZoneMapSVG(zoneSet: try monaco.get(), roads: roads, labels: false).text
        let road = try #require(svg.range(of: "stroke=\"#9a9a9a\""))
        let firstZone = try #require(svg.range(of: "<title>"))
        #expect(road.lowerBound < firstZone.lowerBound)
    }
}
