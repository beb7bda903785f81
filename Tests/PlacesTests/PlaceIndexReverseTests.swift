import GeoKit
import Testing
@testable import Places

/// Reverse search: what to call the point a caller stands on.
@Suite(.timeLimit(.minutes(20))) struct PlaceIndexReverseTests {
    let index = PlaceIndexSearchTests.index
    let origin = PlaceIndexSearchTests.origin

    @Test func aPointByAHouseIsItsAddress() throws {
        let answer = try #require(index.reverse(origin.offset(eastMetres: 15, northMetres: 118)))
        #expect(answer.place.streetAddress == "12 Broadway")
        #expect(answer.distanceMetres < 6)
        #expect(answer.label == "12 Broadway, New York 10036")
    }

    @Test func aPointAwayFromHousesIsItsStreetAndTheNearestCrossStreet() throws {
        let answer = try #require(index.reverse(origin.offset(eastMetres: -5, northMetres: -150)))
        #expect(answer.place.kind == .street)
        #expect(answer.place.name == "Broadway")
        #expect(answer.crossStreet == "West 42nd Street")
        #expect(answer.label == "Broadway near West 42nd Street")
        #expect(abs(answer.distanceMetres - 5) < 1)
    }

    @Test func aPointFarFromEverythingHasNoName() {
        #expect(index.reverse(origin.offset(eastMetres: -3_000, northMetres: 3_000)) == nil)
    }
}
