import GeoKit

/// The search index over a ``PlaceCatalog``: built in memory when the
/// service or a command loads the city's graph file, shared read-only by
/// every request.
///
/// Each place and street is an entry of canonical words (``PlaceText``): the
/// words a query must name (an address's house number and street, a place's
/// name, a street's name) and those it may add (the city, the postcode, a
/// place's address and kind). A house number is kept as `#350`, apart from
/// the street number `350` of `West 350th Street`.
public final class PlaceIndex: Sendable {
    /// The places and streets searched.
    public let catalog: PlaceCatalog
    let text: PlaceText
    let vocabulary: TokenVocabulary
    /// Entry `e`'s words are `entryWords[entryStart[e] ..< entryStart[e + 1]]`,
    /// the first `requiredCount[e]` of them required. Entries are the
    /// catalog's places, then its streets.
    let entryStart: [Int32]
    let entryWords: [Int32]
    let requiredCount: [UInt8]
    /// The entries carrying each word, ascending.
    let postings: [[Int32]]
    /// Words that name the city itself (its `addr:city`, `addr:postcode`
    /// values given by at least one place in a thousand): a query may add
    /// them to any address without penalty.
    let areaWords: Set<String>
    /// The addresses of each street, by its canonical words, for a house
    /// number the map lacks.
    let addressesByStreet: [String: [Int32]]
    /// The reverse search's grids.
    let reverse: ReverseGrid

    /// Indexes `catalog`, with `vocabulary`'s abbreviations.
    public init(catalog: PlaceCatalog, vocabulary: PlaceVocabulary = .standard) {
        self.catalog = catalog
        let text = PlaceText(vocabulary: vocabulary)
        self.text = text
        var wordLists: [[String]] = []
        var required: [UInt8] = []
        var areaWordCounts: [String: Int] = [:]
        var addressesByStreet: [String: [Int32]] = [:]
        wordLists.reserveCapacity(catalog.places.count + catalog.streets.count)
        for (index, place) in catalog.places.enumerated() {
            let house = place.houseNumber.map { text.words($0).map { "#" + $0 } } ?? []
            let street = place.street.map(text.words) ?? []
            let area = text.words([place.city, place.postcode].compactMap { $0 }.joined(separator: " "))
            for word in Set(area) { areaWordCounts[word, default: 0] += 1 }
            if place.houseNumber != nil, !street.isEmpty {
                addressesByStreet[street.joined(separator: " "), default: []].append(Int32(index))
            }
            switch place.kind {
            case .address, .street:
                wordLists.append(house + street + area)
                required.append(UInt8(min(house.count + street.count, 255)))
            case .place:
                let name = text.words(place.name ?? "")
                let kind = place.category.map { text.words(String($0.split(separator: "=").last ?? "")) } ?? []
                wordLists.append(name + house + street + area + kind)
                required.append(UInt8(min(name.count, 255)))
            }
        }
        for street in catalog.streets {
            let words = text.words(street.name)
            wordLists.append(words)
            required.append(UInt8(min(words.count, 255)))
        }
        var counts: [String: Int32] = [:]
        for words in wordLists {
            for word in Set(words) { counts[word, default: 0] += 1 }
        }
        let vocabulary = TokenVocabulary(counts: counts)
        var entryStart: [Int32] = [0]
        var entryWords: [Int32] = []
        var postings = [[Int32]](repeating: [], count: vocabulary.words.count)
        for (entry, words) in wordLists.enumerated() {
            for word in words {
                let id = vocabulary.id(of: word)!
                entryWords.append(id)
                if postings[Int(id)].last != Int32(entry) { postings[Int(id)].append(Int32(entry)) }
            }
            entryStart.append(Int32(entryWords.count))
        }
        self.vocabulary = vocabulary
        self.entryStart = entryStart
        self.entryWords = entryWords
        self.requiredCount = required
        self.postings = postings
        let commonArea = max(2, catalog.places.count / 1000)
        areaWords = Set(areaWordCounts.filter { $0.value >= commonArea }.keys)
        self.addressesByStreet = addressesByStreet
        reverse = ReverseGrid(catalog: catalog)
    }

    /// How many entries (places and streets) the index holds.
    public var entryCount: Int { requiredCount.count }
}

extension PlaceIndex {
    /// The index of the catalog a graph file carries in its
    /// ``PlaceCatalog/graphSection``, given the file's extra sections; nil
    /// when it has none (a synthetic city).
    /// - Throws: ``PlaceError/damaged(reason:)`` when the section does not read.
    public convenience init?(graphSections: [String: [UInt8]], vocabulary: PlaceVocabulary = .standard) throws(PlaceError) {
        guard let bytes = graphSections[PlaceCatalog.graphSection] else { return nil }
        self.init(catalog: try PlaceCatalog(encoded: bytes), vocabulary: vocabulary)
    }
}
