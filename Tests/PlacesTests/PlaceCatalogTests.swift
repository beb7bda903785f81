import GeoKit
import Testing
@testable import Places

/// Which of a map's named features become places, and the catalog's bytes.
@Suite(.timeLimit(.minutes(20))) struct PlaceCatalogTests {
    static let origin = Coordinate(longitude: 7.42, latitude: 43.73)

    static func node(_ id: Int64, _ tags: [String: String], east: Double = 0) -> NamedFeature {
        NamedFeature(kind: .node, id: id, tags: tags, points: [origin.offset(eastMetres: east, northMetres: 0)])
    }

    @Test func addressesPlacesAndStreetsAreToldApart() throws {
        let here = Self.origin
        let square = [here, here.offset(eastMetres: 20, northMetres: 0), here.offset(eastMetres: 20, northMetres: 20),
                      here.offset(eastMetres: 0, northMetres: 20), here]
        let features = [
            Self.node(1, ["addr:housenumber": "7", "addr:street": "Rue Grimaldi", "addr:postcode": "98000"]),
            Self.node(2, ["name": "Café de Paris", "amenity": "cafe", "addr:housenumber": "1", "addr:street": "Place du Casino"], east: 300),
            Self.node(3, ["name": "A bench with a name"]),
            Self.node(4, ["name": "Gare de Monaco", "railway": "station"], east: 600),
            Self.node(5, ["name": "Entrance", "railway": "subway_entrance"]),
            NamedFeature(kind: .way, id: 10, tags: ["building": "yes", "addr:housenumber": "7", "addr:street": "Rue Grimaldi"], points: square),
            NamedFeature(kind: .way, id: 11, tags: ["highway": "residential", "name": "Rue Grimaldi"],
                         points: [here, here.offset(eastMetres: 100, northMetres: 0)]),
            NamedFeature(kind: .way, id: 12, tags: ["highway": "residential", "name": "Rue Grimaldi"],
                         points: [here.offset(eastMetres: 100, northMetres: 0), here.offset(eastMetres: 200, northMetres: 0)]),
            NamedFeature(kind: .way, id: 13, tags: ["highway": "service"], points: [here, here.offset(eastMetres: 0, northMetres: 50)]),
        ]
        let catalog = PlaceCatalog(features: features)
        let addresses = catalog.places.filter { $0.kind == .address }.map(\.streetAddress)
        #expect(addresses == ["7 Rue Grimaldi", "1 Place du Casino"], "the building's 7 Rue Grimaldi is the node's twin")
        #expect(catalog.places.filter { $0.kind == .place }.map(\.name) == ["Café de Paris", "Gare de Monaco"])
        #expect(catalog.places.first { $0.name == "Café de Paris" }?.category == "amenity=cafe")
        #expect(catalog.streets.map(\.name) == ["Rue Grimaldi"])
        #expect(catalog.streets.first?.lines.count == 2)
        #expect(catalog.addressCount == 3)
    }

    @Test func aWayStandsAtTheMeanOfItsNodes() {
        let here = Self.origin
        let square = [here, here.offset(eastMetres: 40, northMetres: 0), here.offset(eastMetres: 40, northMetres: 40),
                      here.offset(eastMetres: 0, northMetres: 40), here]
        let catalog = PlaceCatalog(features: [NamedFeature(kind: .way, id: 1, tags: ["name": "Musée", "tourism": "museum"], points: square)])
        let centre = here.offset(eastMetres: 20, northMetres: 20)
        #expect(catalog.places[0].coordinate.haversineDistance(to: centre) < 0.5)
    }

    @Test func theCatalogReadsBackFromItsBytes() throws {
        let catalog = PlaceIndexSearchTests.town
        #expect(try PlaceCatalog(encoded: catalog.encoded()) == catalog)
        #expect(try PlaceCatalog(encoded: PlaceCatalog(places: [], streets: []).encoded()) == PlaceCatalog(places: [], streets: []))
    }

    @Test func damagedBytesAreRefusedWithTheReason() {
        let bytes = PlaceIndexSearchTests.town.encoded()
        #expect {
            try PlaceCatalog(encoded: Array(bytes.dropLast(9)))
        } throws: { error in
            guard case let .damaged(reason) = error as? PlaceError else { return false }
            return reason.hasPrefix("cut short at byte")
        }
        #expect(throws: PlaceError.damaged(reason: "version 9, this build reads version \(PlaceCatalog.formatVersion)")) {
            try PlaceCatalog(encoded: [9, 0, 0, 0] + bytes.dropFirst(4))
        }
        #expect(throws: PlaceError.damaged(reason: "1 bytes after the streets")) {
            try PlaceCatalog(encoded: bytes + [0])
        }
        #expect("\(PlaceError.damaged(reason: "x"))".contains("mytaxi graph build"))
    }
}
