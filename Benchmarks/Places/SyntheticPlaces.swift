import Foundation
import GeoKit
import Places

/// A synthetic city's places for measuring the index at a large city's
/// size: streets named from made-up words (`Velmor Avenue`, `North Kastrel
/// Lane`) and numbered ones (`West 142nd Street`), house numbers along them,
/// and named places (`Golden Sarvik Cafe`) among them, over 40 × 40 km; with
/// queries sampled from them, some with a typo, some cut as while typing.
struct SyntheticPlaces: Sendable {
    /// How many queries of each kind are drawn.
    static let queryCount = 2_000
    let catalog: PlaceCatalog
    let exactQueries: [String]
    let typoQueries: [String]
    let typingQueries: [String]
    let placeQueries: [String]

    init(count: Int, seed: UInt64) {
        var random = SplitMix64(state: seed)
        let syllables = ["ka", "vel", "mor", "stra", "en", "lin", "dor", "sar", "vik", "bel", "ton", "ash", "ri", "co", "mar",
                         "pel", "gra", "nor", "wen", "tal", "ous", "ber", "fi", "lo", "quin", "dra", "es", "hol", "um", "zan"]
        var words: Set<String> = []
        while words.count < 600 {
            let parts = (0..<Int.random(in: 2...3, using: &random)).map { _ in syllables.randomElement(using: &random)! }
            let word = parts.joined()
            words.insert(word.prefix(1).uppercased() + word.dropFirst())
        }
        let baseWords = words.sorted()
        let types = ["Street", "Avenue", "Road", "Lane", "Drive", "Place", "Court", "Boulevard"]
        let prefixes = ["", "North ", "South ", "East ", "West "]
        var streetNames: [String] = []
        for word in baseWords {
            for type in types where random.nextUnit() < 0.5 {
                streetNames.append(prefixes.randomElement(using: &random)! + word + " " + type)
            }
        }
        for number in 1...220 {
            let suffix = (11...13).contains(number % 100) ? "th" : [1: "st", 2: "nd", 3: "rd"][number % 10] ?? "th"
            for side in ["East", "West"] { streetNames.append("\(side) \(number)\(suffix) Street") }
        }
        let origin = Coordinate(longitude: -74.2, latitude: 40.5)
        var places: [Place] = []
        places.reserveCapacity(count)
        let placeCount = count / 10
        let perStreet = (count - placeCount) / streetNames.count + 1
        var streets: [Street] = []
        for name in streetNames {
            let start = origin.offset(eastMetres: random.nextUnit() * 40_000, northMetres: random.nextUnit() * 40_000)
            let angle = random.nextUnit() * Double.pi
            let end = start.offset(eastMetres: cos(angle) * Double(perStreet) * 8, northMetres: sin(angle) * Double(perStreet) * 8)
            streets.append(Street(name: name, lines: [[start, end]]))
            for house in 0..<perStreet where places.count < count - placeCount {
                let along = Double(house) / Double(perStreet)
                places.append(Place(kind: .address, houseNumber: "\(house * 2 + 1)", street: name, city: "Synthetic City",
                                    coordinate: Coordinate(longitude: start.longitude + (end.longitude - start.longitude) * along,
                                                           latitude: start.latitude + (end.latitude - start.latitude) * along)))
            }
        }
        let adjectives = ["Golden", "Little", "Blue", "Old", "Royal", "Green", "Happy", "Grand", "Silver", "Sunny"]
        let kinds = [("Cafe", "amenity=cafe"), ("Pharmacy", "amenity=pharmacy"), ("Hotel", "tourism=hotel"), ("Bakery", "shop=bakery"),
                     ("Clinic", "amenity=clinic"), ("School", "amenity=school"), ("Market", "shop=supermarket")]
        while places.count < count {
            let kind = kinds.randomElement(using: &random)!
            let name = "\(adjectives.randomElement(using: &random)!) \(baseWords.randomElement(using: &random)!) \(kind.0)"
            places.append(Place(kind: .place, name: name, category: kind.1,
                                coordinate: origin.offset(eastMetres: random.nextUnit() * 40_000, northMetres: random.nextUnit() * 40_000)))
        }
        catalog = PlaceCatalog(places: places, streets: streets)

        let addresses = (0..<Self.queryCount).map { _ in places[Int(random.next() % UInt64(count - placeCount))] }
        exactQueries = addresses.map { "\($0.houseNumber!) \($0.street!)" }
        typoQueries = addresses.map { address in
            var letters = Array(address.street!)
            let position = 1 + Int(random.next() % UInt64(max(1, letters.count - 2)))
            letters.remove(at: position)
            return "\(address.houseNumber!) \(String(letters))"
        }
        typingQueries = exactQueries.map { String($0.prefix(max(4, $0.count * 2 / 3))) }
        placeQueries = (0..<Self.queryCount).map { _ in places[count - placeCount + Int(random.next() % UInt64(placeCount))].name! }
    }
}
