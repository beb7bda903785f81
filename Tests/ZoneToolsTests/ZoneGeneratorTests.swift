import Foundation
import GeoKit
import Testing
import Zones
import ZoneTools

@Suite(.timeLimit(.minutes(20))) struct ZoneGeneratorTests {
    private func load(_ zones: [GeneratedZone]) throws -> ZoneSet {
        try ZoneFileLoader.load(document: GeneratedZone.zoneFile(zones), options: ZoneFileOptions()).zoneSet
    }

    /// A 0.02° square near Monaco (about 1.6 km × 2.2 km) in 500 m cells:
    /// 4 columns, 5 rows, ids by row and column, tiling the square exactly.
    @Test func gridCellsTileTheBoundaryWithStableIds() throws {
        let boundary = try Geometry.rectangle(BoundingBox(minX: 7.40, minY: 43.70, maxX: 7.42, maxY: 43.72))
        let cells = try ZoneGrid.cells(boundary: boundary, cellMetres: 500)
        #expect(cells.count == 20)
        #expect(cells.first?.id == "r0c0" && cells.last?.id == "r4c3")
        #expect(cells.map(\.id) == (try ZoneGrid.cells(boundary: boundary, cellMetres: 500)).map(\.id))
        let coverage = try ZoneCoverage(zoneSet: try load(cells), boundary: boundary, minimumSquareMetres: 1)
        #expect(coverage.tilesTheBoundary)
    }

    /// Cells outside a boundary with a notch are left out; the rest are clipped.
    @Test func gridLeavesOutCellsOutsideTheBoundary() throws {
        let zoneSet = try ZoneFileLoader.load(path: TestData.fixture("coverage-zones.geojson"),
                                              options: ZoneFileOptions(overlapToleranceSquareMetres: .infinity)).zoneSet
        let boundary = try Geometry.collection(zoneSet.zones.map(\.geometry)).unaryUnion()
        let cells = try ZoneGrid.cells(boundary: boundary, cellMetres: 400)
        let coverage = try ZoneCoverage(zoneSet: try load(cells), boundary: boundary, minimumSquareMetres: 1)
        #expect(coverage.tilesTheBoundary)
        #expect(cells.allSatisfy { !($0.geometry.pointOnSurface.map { $0.longitude > 7.42 && $0.longitude < 7.43 } ?? true) })
    }

    /// Two ranks split the square down the middle; a rank far outside gets nothing.
    @Test func voronoiSplitsBetweenRanks() throws {
        let boundary = try Geometry.rectangle(BoundingBox(minX: 7.40, minY: 43.70, maxX: 7.42, maxY: 43.71))
        let ranks = try TaxiRank.read(try GeoJSONFile(path: TestData.fixture("ranks.geojson")))
        #expect(ranks.map(\.name) == ["W1", "East rank", "far"])
        let zones = try ZoneVoronoi.cells(boundary: boundary, ranks: ranks, path: "ranks")
        #expect(zones.map(\.id) == ["west", "east"])
        let west = try #require(zones.first?.geometry.boundingBox)
        #expect(abs(west.maxX - 7.41) < 1e-6)
        #expect(try ZoneCoverage(zoneSet: try load(zones), boundary: boundary, minimumSquareMetres: 1).tilesTheBoundary)
    }

    /// Two ranks at one place cannot each have a cell.
    @Test func voronoiRefusesRanksAtTheSamePlace() throws {
        let boundary = try Geometry.rectangle(BoundingBox(minX: 7.40, minY: 43.70, maxX: 7.42, maxY: 43.71))
        let place = Coordinate(longitude: 7.41, latitude: 43.705)
        #expect(throws: ZoneToolError.self) {
            try ZoneVoronoi.cells(boundary: boundary, ranks: [TaxiRank(id: "a", name: "a", position: place),
                                                              TaxiRank(id: "b", name: "b", position: place)], path: "ranks")
        }
    }

    /// The 17 real taxi ranks of central Helsinki: one valid zone each, together tiling the area.
    @Test(.enabled(if: TestData.shared("helsinki/taxi_ranks.geojson") != nil,
                   "shared data missing: ../shared/data/helsinki/taxi_ranks.geojson"))
    func helsinkiRanksTileTheCentre() throws {
        let ranks = try TaxiRank.read(try GeoJSONFile(path: try #require(TestData.shared("helsinki/taxi_ranks.geojson"))))
        let boundary = try BoundaryFile.read(path: TestData.fixture("helsinki-centre.geojson"))
        let zones = try ZoneVoronoi.cells(boundary: boundary, ranks: ranks, path: "ranks")
        #expect(ranks.count == 17)
        #expect(zones.count == 17)
        #expect(zones.contains { $0.name == "Senaatintori" })
        let zoneSet = try load(zones)
        #expect(try ZoneCoverage(zoneSet: zoneSet, boundary: boundary, minimumSquareMetres: 1).tilesTheBoundary)
        let index = try ZoneIndex(zoneSet: zoneSet)
        for rank in ranks {
            #expect(index.zonePosition(at: rank.position).map { zoneSet.zones[$0].id.text } == rank.id)
        }
    }

    /// Points that are not ranks are named.
    @Test func ranksMustBePoints() throws {
        #expect(throws: ZoneToolError.self) { try TaxiRank.read(try GeoJSONFile(path: TestData.shipped("monaco"))) }
    }
}

/// Taxi ranks read from OpenStreetMap (`zones voronoi --osm`).
@Suite(.timeLimit(.minutes(20))) struct OSMTaxiRankTests {
    @Test func amenityTaxiNodesAndWaysAreRanks() throws {
        let ranks = try TaxiRank.read(osm: TestData.fixture("ranks.osm"))
        #expect(ranks.map(\.id) == ["n1", "n2", "w20"], "the parking node is no rank")
        #expect(ranks.map(\.name) == ["Casino", "T2", "Boulevard Albert 1er"])
        let area = try #require(ranks.last?.position)
        #expect(abs(area.longitude - 7.416) < 1e-9 && abs(area.latitude - 43.734) < 1e-9, "the mean of the four corners, the closing node once")
    }

    /// The three ranks OpenStreetMap has in the shipped Midtown map.
    @Test func theShippedMidtownMapHasThreeRanks() throws {
        let ranks = try TaxiRank.read(osm: TestData.packageRoot.appendingPathComponent("Maps/manhattan-midtown.osm.pbf").path)
        #expect(ranks.map(\.id) == ["n5087640509", "n6227519273", "n7678239164"])
    }

    @Test func aMapWithoutRanksOrNoMapIsNamed() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("no-ranks-\(UUID().uuidString).osm")
        defer { try? FileManager.default.removeItem(at: empty) }
        try #"<?xml version="1.0"?><osm version="0.6"><node id="3" lat="43.73" lon="7.42" version="1"><tag k="amenity" v="parking"/></node></osm>"#
            .write(to: empty, atomically: true, encoding: .utf8)
        #expect(throws: ZoneToolError.self) { try TaxiRank.read(osm: empty.path) }
        #expect(throws: ZoneToolError.self) { try TaxiRank.read(osm: TestData.fixture("missing.osm.pbf")) }
    }

    /// The 17 ranks of the Helsinki extract, as the shared GeoJSON lists them.
    @Test(.enabled(if: TestData.shared("helsinki/helsinki.osm.pbf") != nil,
                   "shared data missing: ../shared/data/helsinki/helsinki.osm.pbf"))
    func helsinkiRanksMatchTheSharedList() throws {
        let fromOSM = try TaxiRank.read(osm: try #require(TestData.shared("helsinki/helsinki.osm.pbf")))
        let listed = try TaxiRank.read(try GeoJSONFile(path: try #require(TestData.shared("helsinki/taxi_ranks.geojson"))))
        #expect(fromOSM.map(\.id).sorted() == listed.map(\.id).sorted())
        for rank in listed {
            let read = try #require(fromOSM.first { $0.id == rank.id })
            #expect(read.name == rank.name)
            #expect(abs(read.position.longitude - rank.position.longitude) < 1e-7 && abs(read.position.latitude - rank.position.latitude) < 1e-7)
        }
    }
}
