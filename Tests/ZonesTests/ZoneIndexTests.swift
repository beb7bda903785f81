import GeoKit
import Testing
import Zones

@Suite(.timeLimit(.minutes(20))) struct ZoneIndexTests {
    /// 100,000 random points over the NYC zones' bounding box: the index
    /// answers exactly what a brute-force GEOS check of every zone answers.
    @Test(.enabled(if: TestData.nycZonesAvailable, "shared data missing: ../shared/data/nyc/taxi_zones.geojson"))
    func equalsBruteForceGEOSOnNYC() throws {
        let zoneSet = try ZoneFileLoader.load(path: TestData.shared("nyc/taxi_zones.geojson")!,
                                              options: TestData.nycOptions).zoneSet
        let index = try ZoneIndex(zoneSet: zoneSet)
        let box = try #require(zoneSet.boundingBox)
        var random = SplitMix64(state: 42)
        var inside = 0
        for _ in 0..<100_000 {
            let point = Coordinate(longitude: Double.random(in: box.minX...box.maxX, using: &random),
                                   latitude: Double.random(in: box.minY...box.maxY, using: &random))
            let answer = index.zonePosition(at: point)
            #expect(answer == index.bruteForceZonePosition(at: point), "at \(point)")
            if answer != nil { inside += 1 }
        }
        #expect((30_000...45_000).contains(inside))
    }

    /// Points near borders are the hard case: jitter every vertex by a few centimetres.
    @Test(arguments: ["manhattan", "monaco"])
    func equalsBruteForceNearBorders(city: String) throws {
        let zoneSet = try ZoneFileLoader.load(path: TestData.shipped(city)).zoneSet
        let index = try ZoneIndex(zoneSet: zoneSet)
        var random = SplitMix64(state: 7)
        for zone in zoneSet.zones {
            for vertex in zone.geometry.polygonRings.joined() {
                let point = Coordinate(longitude: vertex.longitude + Double.random(in: -5e-7...5e-7, using: &random),
                                       latitude: vertex.latitude + Double.random(in: -5e-7...5e-7, using: &random))
                #expect(index.zonePosition(at: point) == index.bruteForceZonePosition(at: point), "at \(point)")
            }
        }
    }

    @Test func knownPlacesOfTheDemoCity() throws {
        let index = try ZoneIndex(zoneSet: ZoneFileLoader.load(path: TestData.shipped("manhattan")).zoneSet)
        #expect(index.zone(at: Coordinate(longitude: -73.9855, latitude: 40.7580))?.name == "Times Sq/Theatre District")
        #expect(index.zone(at: Coordinate(longitude: -73.9654, latitude: 40.7829))?.name == "Central Park")
        #expect(index.zone(at: Coordinate(longitude: -74.0445, latitude: 40.6892))?.id == "103")
        #expect(index.zone(at: Coordinate(longitude: -74.02, latitude: 40.75)) == nil)  // the Hudson
        #expect(index.zone(at: Coordinate(longitude: 2.35, latitude: 48.85)) == nil)    // Paris
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity, 1e308])
    func nonsenseCoordinatesAreOutside(value: Double) throws {
        let index = try ZoneIndex(zoneSet: ZoneFileLoader.load(path: TestData.shipped("monaco")).zoneSet)
        #expect(index.zone(at: Coordinate(longitude: value, latitude: 43.73)) == nil)
        #expect(index.zone(at: Coordinate(longitude: 7.42, latitude: value)) == nil)
    }

    @Test func sendsFewPointsToGEOS() throws {
        let index = try ZoneIndex(zoneSet: ZoneFileLoader.load(path: TestData.shipped("manhattan")).zoneSet)
        let statistics = index.statistics
        #expect(statistics.borderCells < statistics.topCells / 5)
        #expect(statistics.geosSubCells < statistics.borderCells * 64 / 4)
        #expect(index.tableBytes < 64 << 20)
    }
}

@Suite(.timeLimit(.minutes(20))) struct PlainZoneLookupTests {
    /// The yardstick of the benchmarks answers like the index.
    @Test func plainLookupAgreesWithTheIndex() throws {
        let zoneSet = try ZoneFileLoader.load(path: TestData.shipped("manhattan")).zoneSet
        let index = try ZoneIndex(zoneSet: zoneSet)
        let plain = try PlainZoneLookup(zoneSet: zoneSet)
        let box = try #require(zoneSet.boundingBox)
        var random = SplitMix64(state: 99)
        for _ in 0..<5_000 {
            let point = Coordinate(longitude: .random(in: box.minX...box.maxX, using: &random),
                                   latitude: .random(in: box.minY...box.maxY, using: &random))
            #expect(try plain.zonePosition(at: point) == index.zonePosition(at: point))
        }
    }
}
