import GeoKit
import Testing
import Zones

/// The territories the zone set in force gives its zones, as the history
/// API asks for them: kept per set, and a new set in force brings its own.
@Suite(.timeLimit(.minutes(20))) struct ZoneTerritoriesTests {
    /// Zone 2 is the square 1...2 × 0...1; zone 1, before it in the set,
    /// spans longitudes 0...`firstEastEdge`, meeting zone 2 along
    /// longitude 1 when that is its east edge.
    static func zones(firstEastEdge: Double) throws -> ZoneSet {
        ZoneSet(zones: [
            Zone(id: "1", name: "West", geometry: try .rectangle(BoundingBox(minX: 0, minY: 0, maxX: firstEastEdge, maxY: 1))),
            Zone(id: "2", name: "East", geometry: try .rectangle(BoundingBox(minX: 1, minY: 0, maxX: 2, maxY: 1))),
        ])
    }

    static let onZoneTwosWestEdge = Coordinate(longitude: 1, latitude: 0.5)

    @Test func aZonesTerritoryLeavesTheBorderToTheZoneBeforeIt() throws {
        let index = try ZoneIndex(zoneSet: try Self.zones(firstEastEdge: 1))
        for _ in 0..<2 {
            let territory = try #require(index.territories.territory(of: "2"))
            #expect(territory.precedingNeighbours.map(\.id) == ["1"])
            #expect(try !territory.preparedTest().contains(Self.onZoneTwosWestEdge), "the shared border is zone 1's")
            #expect(try territory.preparedTest().contains(Coordinate(longitude: 1.5, latitude: 0.5)))
        }
        #expect(index.territories.territory(of: "3") == nil)
    }

    /// Zone 2 is drawn the same in both sets; only zone 1 moves away. A
    /// territory kept from the first set would still leave zone 2's west edge out.
    @Test func afterASwapTheTerritoryFollowsTheNewZones() throws {
        let active = ActiveZones(try ZoneIndex(zoneSet: try Self.zones(firstEastEdge: 1)))
        let before = try #require(active.current.territories.territory(of: "2"))
        #expect(try !before.preparedTest().contains(Self.onZoneTwosWestEdge))

        active.replace(with: try ZoneIndex(zoneSet: try Self.zones(firstEastEdge: 0.5)))

        let after = try #require(active.current.territories.territory(of: "2"))
        #expect(after.precedingNeighbours.isEmpty, "zone 1 no longer meets zone 2")
        #expect(try after.preparedTest().contains(Self.onZoneTwosWestEdge), "the west edge is zone 2's now")
    }
}
