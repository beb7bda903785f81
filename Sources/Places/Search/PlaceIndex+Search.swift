import GeoKit

extension PlaceIndex {
    /// The most results a search returns.
    public static let maximumLimit = 50

    /// The places that `query` names, best first: ranked by how well the
    /// text matches (every word found, exactly, beats a typo or a word left
    /// out), then by nearness to `near`.
    ///
    /// Case, punctuation, diacritics and the usual abbreviations do not
    /// matter; a word may carry a typing error (two in long words); the last
    /// word is taken as the start of one while it is being typed; one word
    /// may match nothing; the city and postcode may be added or left out.
    /// A house number the map lacks on a street it knows is answered with
    /// the street, near the closest number, and a ``PlaceMatch/note``.
    public func search(_ query: String, near: Coordinate? = nil, limit: Int = 10) -> [PlaceMatch] {
        let words = text.words(query)
        let limit = min(max(limit, 0), Self.maximumLimit)
        guard !words.isEmpty, limit > 0 else { return [] }
        let typing = query.unicodeScalars.last.map { $0.properties.isAlphabetic || $0.properties.numericType != nil } ?? false
        var scorer = QueryScorer(index: self, words: words, completingLast: typing)
        var ranked = scorer.candidates(limit: limit).map { candidate -> (entry: Int32, score: Double, match: PlaceMatch) in
            let place = place(ofEntry: candidate.entry, near: near)
            let distance = near.map { PlanarDistance.squaredMetres($0, place.coordinate).squareRoot() }
            return (candidate.entry, candidate.score,
                    PlaceMatch(place: place, confidence: candidate.confidence, distanceMetres: distance))
        }
        ranked.sort { a, b in
            let scoreA = (a.score * 20).rounded(), scoreB = (b.score * 20).rounded()
            if scoreA != scoreB { return scoreA > scoreB }
            if let distanceA = a.match.distanceMetres, let distanceB = b.match.distanceMetres, distanceA != distanceB {
                return distanceA < distanceB
            }
            return a.entry < b.entry
        }
        var results: [PlaceMatch] = []
        if let missing = missingHouseNumber(words: words, top: ranked.first?.entry, near: near) { results.append(missing) }
        for candidate in ranked where results.count < limit {
            let isTwin = results.contains {
                $0.place.label == candidate.match.place.label
                    && PlanarDistance.squaredMetres($0.place.coordinate, candidate.match.place.coordinate) < 100 * 100
            }
            if !isTwin { results.append(candidate.match) }
        }
        return results
    }

    /// The place of entry `entry`: a catalog place, or a street at its
    /// vertex nearest `near` (its middle without one).
    func place(ofEntry entry: Int32, near: Coordinate?) -> Place {
        let index = Int(entry)
        if index < catalog.places.count { return catalog.places[index] }
        let street = catalog.streets[index - catalog.places.count]
        return Place(kind: .street, name: street.name, coordinate: near.map(street.vertex(nearest:)) ?? street.middle)
    }

    /// When the query starts with a house number and the best match is its
    /// street without it: the street at the address whose number is
    /// closest, with a note saying so.
    private func missingHouseNumber(words: [String], top: Int32?, near: Coordinate?) -> PlaceMatch? {
        guard words.count >= 2, PlaceText.isHouseNumber(words[0]), let top else { return nil }
        let entry = Int(top)
        let streetName: String
        if entry >= catalog.places.count {
            streetName = catalog.streets[entry - catalog.places.count].name
        } else {
            let place = catalog.places[entry]
            guard place.kind == .address, let street = place.street,
                  let houseNumber = place.houseNumber, text.words(houseNumber).first != words[0] else { return nil }
            streetName = street
        }
        guard !text.words(streetName).contains(words[0]) else { return nil }
        let wanted = Self.leadingNumber(words[0])
        let addresses = addressesByStreet[text.words(streetName).joined(separator: " "), default: []]
        let closest = addresses.min { first, second in
            abs(Self.leadingNumber(catalog.places[Int(first)].houseNumber ?? "") - wanted)
                < abs(Self.leadingNumber(catalog.places[Int(second)].houseNumber ?? "") - wanted)
        }.map { catalog.places[Int($0)] }
        let coordinate = closest?.coordinate ?? place(ofEntry: top, near: near).coordinate
        let nearNumber = closest?.houseNumber.map { " near number \($0)" } ?? ""
        return PlaceMatch(place: Place(kind: .street, name: streetName, coordinate: coordinate), confidence: 0.5,
                          distanceMetres: near.map { PlanarDistance.squaredMetres($0, coordinate).squareRoot() },
                          note: "number \(words[0]) is not on \(streetName) in the map; showing the street\(nearNumber)")
    }

    private static func leadingNumber(_ houseNumber: String) -> Int {
        Int(houseNumber.prefix { $0.isNumber }) ?? 0
    }
}
