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
        let candidates = scorer.candidates(limit: limit)
        // Scores within a twentieth are equal (nearness decides): rank only the best buckets.
        let buckets = candidates.map { Int(($0.score * 20).rounded()) }
        let cutoff = Self.cutoffBucket(buckets, keeping: limit * 2)
        var ranked = candidates.indices.filter { buckets[$0] >= cutoff }.map { position in
            let candidate = candidates[position]
            return (entry: candidate.entry, bucket: buckets[position], confidence: candidate.confidence,
                    metres: near.map { PlanarDistance.squaredMetres($0, coordinate(ofEntry: candidate.entry, near: $0)).squareRoot() })
        }
        ranked.sort { a, b in
            if a.bucket != b.bucket { return a.bucket > b.bucket }
            if let metresA = a.metres, let metresB = b.metres, metresA != metresB { return metresA < metresB }
            return a.entry < b.entry
        }
        var results: [PlaceMatch] = []
        if let missing = missingHouseNumber(words: words, top: ranked.first?.entry, near: near) { results.append(missing) }
        for candidate in ranked where results.count < limit {
            let match = PlaceMatch(place: place(ofEntry: candidate.entry, near: near), confidence: candidate.confidence,
                                   distanceMetres: candidate.metres)
            let isTwin = results.contains {
                $0.label == match.label && PlanarDistance.squaredMetres($0.place.coordinate, match.place.coordinate) < 100 * 100
            }
            if !isTwin { results.append(match) }
        }
        return results
    }

    /// The lowest bucket to rank so that at least `count` candidates are
    /// ranked (every one when there are fewer): the buckets above it hold
    /// fewer than `count`.
    private static func cutoffBucket(_ buckets: [Int], keeping count: Int) -> Int {
        guard buckets.count > count else { return Int.min }
        var perBucket: [Int: Int] = [:]
        for bucket in buckets { perBucket[bucket, default: 0] += 1 }
        var kept = 0
        for bucket in perBucket.keys.sorted(by: >) {
            kept += perBucket[bucket]!
            if kept >= count { return bucket }
        }
        return Int.min
    }

    /// The place of entry `entry`: a catalog place, or a street at its
    /// vertex nearest `near` (its middle without one).
    func place(ofEntry entry: Int32, near: Coordinate?) -> Place {
        let index = Int(entry)
        if index < catalog.places.count { return catalog.places[index] }
        let street = catalog.streets[index - catalog.places.count]
        return Place(kind: .street, name: street.name, coordinate: coordinate(ofEntry: entry, near: near))
    }

    /// Where entry `entry` stands: a place's point, or a street's vertex nearest `near`.
    private func coordinate(ofEntry entry: Int32, near: Coordinate?) -> Coordinate {
        let index = Int(entry)
        if index < catalog.places.count { return catalog.places[index].coordinate }
        let street = catalog.streets[index - catalog.places.count]
        return near.map(street.vertex(nearest:)) ?? street.middle
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
