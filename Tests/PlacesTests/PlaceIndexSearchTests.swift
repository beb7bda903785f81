import GeoKit
import Testing
@testable import Places

/// Search on a small hand-made town: what a dispatcher or a passenger types,
/// and what they expect first.
@Suite(.timeLimit(.minutes(20))) struct PlaceIndexSearchTests {
    static let origin = Coordinate(longitude: -73.99, latitude: 40.75)

    /// Broadway runs north, West 42nd Street east, crossing at the origin;
    /// Lexington Avenue runs north 800 m east.
    static let town: PlaceCatalog = {
        func at(_ east: Double, _ north: Double) -> Coordinate { origin.offset(eastMetres: east, northMetres: north) }
        var places: [Place] = []
        for number in stride(from: 2, through: 40, by: 2) {
            places.append(Place(kind: .address, houseNumber: "\(number)", street: "Broadway", city: "New York", postcode: "10036",
                                coordinate: at(10, Double(number) * 10)))
            places.append(Place(kind: .address, houseNumber: "\(number)", street: "West 42nd Street", postcode: "10036",
                                coordinate: at(Double(number) * 10, 10)))
        }
        places.append(Place(kind: .address, houseNumber: "16", street: "West 39th Street", coordinate: at(-300, -300)))
        places.append(Place(kind: .address, houseNumber: "39", street: "West 16th Street", coordinate: at(-300, -2_500)))
        places.append(Place(kind: .place, name: "Starbucks", category: "amenity=cafe", coordinate: at(50, 50)))
        places.append(Place(kind: .place, name: "Starbucks", category: "amenity=cafe", coordinate: at(700, 700)))
        places.append(Place(kind: .place, name: "Grand Central Terminal", houseNumber: "89", street: "East 42nd Street",
                            category: "railway=station", coordinate: at(800, 20)))
        places.append(Place(kind: .place, name: "Mount Sinai Hospital", category: "amenity=hospital", coordinate: at(800, 600)))
        let streets = [
            Street(name: "Broadway", lines: [[at(0, -200), at(0, 0), at(0, 500)]]),
            Street(name: "West 42nd Street", lines: [[at(-200, 0), at(0, 0), at(500, 0)]]),
            Street(name: "Lexington Avenue", lines: [[at(800, -200), at(800, 800)]]),
        ]
        return PlaceCatalog(places: places, streets: streets)
    }()
    static let index = PlaceIndex(catalog: town)

    func first(_ query: String, near: Coordinate? = nil) -> PlaceMatch? {
        Self.index.search(query, near: near, limit: 5).first
    }

    @Test func anExactAddressComesFirst() throws {
        let match = try #require(first("12 Broadway"))
        #expect(match.place.kind == .address)
        #expect(match.place.streetAddress == "12 Broadway")
        #expect(match.confidence == 1)
        #expect(match.note == nil)
    }

    @Test func abbreviationsCaseAndPunctuationDoNotMatter() {
        for query in ["12 West 42nd Street", "12 w 42 st", "12, W. 42nd St.", "12 WEST 42ND STREET"] {
            #expect(first(query)?.place.streetAddress == "12 West 42nd Street", "\(query)")
        }
    }

    @Test func aTypoInTheStreetIsForgiven() {
        #expect(first("12 Braodway")?.place.streetAddress == "12 Broadway")
        #expect(first("12 Brodway")?.place.streetAddress == "12 Broadway")
        #expect(first("mount sinia hospital")?.place.name == "Mount Sinai Hospital")
    }

    @Test func twoTyposInALongWordAreForgiven() {
        #expect(first("Lexintgon Avneue")?.place.name == "Lexington Avenue")
        #expect(first("Lexinngtom")?.place.name == "Lexington Avenue")
        #expect(first("Lxingtn")?.place.name == nil, "two errors in a word of seven letters are too many")
    }

    @Test func theWordBeingTypedIsCompleted() {
        #expect(first("12 Broa")?.place.streetAddress == "12 Broadway")
        #expect(first("grand cent")?.place.name == "Grand Central Terminal")
        #expect(first("12 w 42nd str")?.place.streetAddress == "12 West 42nd Street")
    }

    @Test func aFinishedWordIsNotTakenAsAPrefix() {
        #expect(Self.index.search("Broa ", limit: 5).isEmpty)
    }

    @Test func theCityAndPostcodeMayBeAddedOrLeftOut() {
        #expect(first("12 Broadway, New York, NY 10036")?.place.streetAddress == "12 Broadway")
        #expect(first("12 West 42nd Street New York")?.place.streetAddress == "12 West 42nd Street")
    }

    @Test func theHouseNumberIsTheFirstNumber() {
        #expect(first("16 West 39th Street")?.place.streetAddress == "16 West 39th Street")
        #expect(first("39 West 16th Street")?.place.streetAddress == "39 West 16th Street")
    }

    @Test func aHouseNumberTheMapLacksGivesTheStreetNearTheClosestNumberWithANote() throws {
        let match = try #require(first("33 Broadway"))
        #expect(match.place.kind == .street)
        #expect(match.place.name == "Broadway")
        let closest = try #require(Self.town.places.first { $0.streetAddress == "32 Broadway" || $0.streetAddress == "34 Broadway" })
        #expect(match.place.coordinate.haversineDistance(to: closest.coordinate) < 25)
        #expect(match.note?.contains("number 33 is not on Broadway") == true)
    }

    @Test func equalMatchesAreRankedByNearness() throws {
        let far = Self.origin.offset(eastMetres: 700, northMetres: 700)
        let nearFar = try #require(first("starbucks", near: far))
        #expect(nearFar.place.coordinate.haversineDistance(to: far) < 5)
        #expect(nearFar.distanceMetres.map { $0 < 5 } == true)
        let nearOrigin = try #require(first("starbucks", near: Self.origin))
        #expect(nearOrigin.place.coordinate.haversineDistance(to: Self.origin) < 100)
    }

    @Test func aStreetStandsAtItsPointNearestTheCaller() throws {
        let caller = Self.origin.offset(eastMetres: 780, northMetres: 650)
        let match = try #require(first("Lexington Ave", near: caller))
        #expect(match.place.kind == .street)
        #expect(match.place.coordinate.haversineDistance(to: caller) < 200)
    }

    @Test func aPlaceIsFoundByItsKind() {
        #expect(first("hospital")?.place.name == "Mount Sinai Hospital")
    }

    @Test func oneWordMatchingNothingDoesNotHideTheRest() {
        #expect(first("12 Broadway zzqx")?.place.streetAddress == "12 Broadway")
    }

    @Test func limitsAndEmptyQueriesAreHonoured() {
        #expect(Self.index.search("Broadway", limit: 3).count == 3)
        #expect(Self.index.search("Broadway", limit: 500).count <= PlaceIndex.maximumLimit)
        #expect(Self.index.search("  ,. ", limit: 5).isEmpty)
        #expect(Self.index.search("Broadway", limit: 0).isEmpty)
        #expect(Self.index.search("qqqqqqqq", limit: 5).isEmpty)
    }
}
