import Testing
import Zones

@Suite(.timeLimit(.minutes(20))) struct ZoneNeighboursTests {
    /// Monaco's quartiers: neighbours by shared border, as on the map.
    @Test func monacoQuartiersShareBorders() throws {
        let zoneSet = try ZoneFileLoader.load(path: TestData.shipped("monaco")).zoneSet
        let neighbours = try ZoneNeighbours(zoneSet: zoneSet)
        #expect(neighbours["monaco-ville"].map(\.id) == ["fontvieille", "la-condamine"])
        #expect(neighbours["larvotto"].map(\.id) == ["la-rousse", "monte-carlo"])
        #expect(neighbours["la-condamine"].count == 6)
        #expect(neighbours["fontvieille"].allSatisfy { $0.sharesBorder && $0.distanceMetres == 0 })
    }

    /// Within 100 m, Monaco-Ville also reaches Jardin Exotique across the gap between them.
    @Test func withinADistanceAddsNearbyZones() throws {
        let zoneSet = try ZoneFileLoader.load(path: TestData.shipped("monaco")).zoneSet
        let neighbours = try ZoneNeighbours(zoneSet: zoneSet, withinMetres: 100)
        let jardin = try #require(neighbours["monaco-ville"].first { $0.id == "jardin-exotique" })
        #expect(!jardin.sharesBorder)
        #expect(jardin.distanceMetres > 50 && jardin.distanceMetres < 100)
        #expect(try ZoneNeighbours(zoneSet: zoneSet, withinMetres: 50)["monaco-ville"].count == 2)
    }

    /// Symmetric, and the 2 × 2 grid's diagonal squares meet at one point only: not neighbours.
    @Test func cornerContactIsNotASharedBorder() throws {
        let zoneSet = try ZoneFileLoader.load(path: TestData.fixture("grid-2x2.geojson")).zoneSet
        let neighbours = try ZoneNeighbours(zoneSet: zoneSet)
        #expect(neighbours["1"].map(\.id) == ["2", "3"])
        #expect(neighbours["4"].map(\.id) == ["2", "3"])
        let diagonal = try ZoneNeighbours(zoneSet: zoneSet, withinMetres: 1)
        #expect(diagonal["1"].map(\.id) == ["2", "3", "4"])
        #expect(diagonal["1"].last?.distanceMetres == 0)
    }
}
