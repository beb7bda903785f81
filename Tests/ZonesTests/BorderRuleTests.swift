import GeoKit
import Testing
import Zones

@Suite(.timeLimit(.minutes(20))) struct BorderRuleTests {
    /// Whole-number ids compare as numbers and come first; others by Unicode scalars.
    @Test func idsOrderNumbersFirstThenText() {
        let ids: [ZoneID] = ["b", "10", "a", "9", "B", "100", "ab"]
        #expect(ids.sorted().map(\.text) == ["9", "10", "100", "B", "a", "ab", "b"])
    }

    /// Four squares meet at (7.41, 43.71): each shared edge and the shared corner
    /// go to the smallest id among the zones touching them.
    @Test(arguments: [
        (7.41, 43.71, "1"),    // the corner all four share
        (7.415, 43.71, "2"),   // edge between 2 (below) and 4 (above)
        (7.405, 43.71, "1"),   // edge between 1 and 3
        (7.41, 43.715, "3"),   // edge between 3 (west) and 4 (east)
        (7.41, 43.705, "1"),   // edge between 1 and 2
        (7.415, 43.715, "4"),  // inside 4
        (7.42, 43.72, "4"),    // outer corner of 4 only
        (7.4200001, 43.715, nil),
    ] as [(Double, Double, String?)])
    func sharedBordersResolveToTheSmallestId(longitude: Double, latitude: Double, expected: String?) throws {
        let index = try ZoneIndex(zoneSet: ZoneFileLoader.load(path: TestData.fixture("grid-2x2.geojson")).zoneSet)
        let point = Coordinate(longitude: longitude, latitude: latitude)
        #expect(index.zone(at: point)?.id.text == expected)
        #expect(index.bruteForceZonePosition(at: point) == index.zonePosition(at: point))
    }

    /// On the real shared borders of a city, every shared vertex is covered by
    /// at least two zones and resolves to exactly one: the smallest id.
    @Test(arguments: ["manhattan", "monaco"])
    func sharedVerticesOfRealBordersGoToTheSmallestId(city: String) throws {
        let zoneSet = try ZoneFileLoader.load(path: TestData.shipped(city)).zoneSet
        let index = try ZoneIndex(zoneSet: zoneSet)
        var owners: [Coordinate: Set<Int>] = [:]
        for (position, zone) in zoneSet.zones.enumerated() {
            for ring in zone.geometry.polygonRings {
                for vertex in ring { owners[vertex, default: []].insert(position) }
            }
        }
        let shared = owners.filter { $0.value.count >= 2 }
        #expect(shared.count > (city == "manhattan" ? 500 : 50))
        let prepared = try zoneSet.zones.map { try PreparedGeometry($0.geometry) }
        for (vertex, zones) in shared {
            let covering = prepared.indices.filter { prepared[$0].covers(vertex) }
            #expect(covering.count >= 2)
            #expect(index.zonePosition(at: vertex) == covering.min())
            #expect(index.zonePosition(at: vertex) == zones.min() || covering.min()! < zones.min()!)
        }
    }

    /// Midpoints of shared edges resolve as GEOS and the rule say, to exactly one zone.
    @Test(arguments: ["manhattan", "monaco"])
    func sharedEdgeMidpointsResolveByTheRule(city: String) throws {
        let zoneSet = try ZoneFileLoader.load(path: TestData.shipped(city)).zoneSet
        let index = try ZoneIndex(zoneSet: zoneSet)
        struct Edge: Hashable { var a: Coordinate, b: Coordinate }
        var edgeOwners: [Edge: Set<Int>] = [:]
        for (position, zone) in zoneSet.zones.enumerated() {
            for ring in zone.geometry.polygonRings {
                for i in 0..<(ring.count - 1) {
                    let (a, b) = (ring[i], ring[i + 1])
                    let key = (a.longitude, a.latitude) < (b.longitude, b.latitude) ? Edge(a: a, b: b) : Edge(a: b, b: a)
                    edgeOwners[key, default: []].insert(position)
                }
            }
        }
        let sharedEdges = edgeOwners.filter { $0.value.count >= 2 }
        #expect(sharedEdges.count > (city == "manhattan" ? 500 : 50))
        for (edge, _) in sharedEdges {
            let midpoint = Coordinate(longitude: (edge.a.longitude + edge.b.longitude) / 2,
                                      latitude: (edge.a.latitude + edge.b.latitude) / 2)
            let answer = index.zonePosition(at: midpoint)
            #expect(answer != nil)
            #expect(answer == index.bruteForceZonePosition(at: midpoint))
        }
    }
}
