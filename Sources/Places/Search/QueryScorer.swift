/// Scores the entries of a ``PlaceIndex`` against one query's words.
///
/// Each typed word is matched against the vocabulary (exactly, as a typo, as
/// the start of a word being typed); the entries carrying the rarest
/// matched words are the candidates, so a search reads a few postings
/// lists, not the whole index. A candidate scores the weight of each word
/// it matches times the match's quality, less each word it lacks and a
/// little for each of its own required words the query left out.
struct QueryScorer {
    /// Quality of a match: exact, one typo, two typos.
    static let exact: Float = 1, oneTypo: Float = 0.7, twoTypos: Float = 0.45
    /// Quality of a word being typed that begins a spelling of the vocabulary (`aven`).
    static let completedForm: Float = 0.8
    /// What a word the entry lacks costs, and a required word of the entry the query lacks.
    static let missingWordCost = 1.0, unaskedWordCost = 0.35
    /// Matches of every word that spare looking for matches missing one:
    /// enough suggestions to choose from.
    static let enoughMatches = 3
    /// The weight of a minor word (`the`, `of`) against 1 for any other.
    static let minorWeight = 0.3
    /// The weight of a word naming the city (`new york`, `10036`): enough to
    /// tell two equal matches apart, not to outweigh a word of the address.
    static let areaWeight = 0.1
    /// How much a number's match counts in the other role than its place in
    /// the query says: a house number after the first word, a street number
    /// first (`16 West 39th Street` is number 16 on 39th Street).
    static let numberOutOfPlace: Float = 0.8

    private let index: PlaceIndex
    private let wordCount: Int
    private let weights: [Double]
    /// The weight of the words a confidence of 1 matches: all but the city's.
    private let fullWeight: Double
    /// Words a candidate must match (all but one at most): not minor, not the city's.
    private let essential: [Int]
    /// The vocabulary id's slot in `qualities`, or -1 when no word matches it.
    private var slotOfWord: [Int32]
    /// `qualities[slot * wordCount + i]`: how well the slot's vocabulary word matches typed word `i`.
    private var qualities: [Float] = []
    /// The vocabulary words each typed word matches.
    private var matched: [[Int32]]
    /// Scratch for one candidate: the best quality of each typed word's match.
    private var best: [Float]

    init(index: PlaceIndex, words: [String], completingLast: Bool) {
        self.index = index
        wordCount = words.count
        let weights = words.map { index.text.isMinor($0) ? Self.minorWeight : index.areaWords.contains($0) ? Self.areaWeight : 1 }
        self.weights = weights
        let essential = words.indices.filter { !index.text.isMinor(words[$0]) && !index.areaWords.contains(words[$0]) }
        self.essential = essential.isEmpty ? Array(words.indices) : essential
        let counted = words.indices.filter { !index.areaWords.contains(words[$0]) }.reduce(0) { $0 + weights[$1] }
        fullWeight = counted > 0 ? counted : weights.reduce(0, +)
        slotOfWord = [Int32](repeating: -1, count: index.vocabulary.words.count)
        matched = Array(repeating: [], count: words.count)
        best = Array(repeating: 0, count: words.count)
        for (position, word) in words.enumerated() {
            let vocabulary = index.vocabulary
            let leadsAddress = position == 0 && words.count > 1 && PlaceText.isHouseNumber(word)
            if let id = vocabulary.id(of: word) { note(id, matches: position, quality: leadsAddress ? Self.numberOutOfPlace : Self.exact) }
            if PlaceText.isHouseNumber(word), let id = vocabulary.id(of: "#" + word) {
                note(id, matches: position, quality: position == 0 ? Self.exact : Self.numberOutOfPlace)
            }
            for typo in vocabulary.typos(of: word) {
                note(typo.id, matches: position, quality: typo.distance == 1 ? Self.oneTypo : Self.twoTypos)
            }
            for form in index.text.misspelledForms(of: word) {
                if let id = vocabulary.id(of: form) { note(id, matches: position, quality: Self.oneTypo) }
            }
            guard completingLast, position == words.count - 1 else { continue }
            var completions = vocabulary.completions(of: word)
            if word.first?.isNumber == true { completions += vocabulary.completions(of: "#" + word) }
            for id in completions {
                let typedLength = Float(word.utf8.count), fullLength = Float(vocabulary.words[Int(id)].utf8.count)
                note(id, matches: position, quality: 0.5 + 0.4 * typedLength / fullLength)
            }
            for form in index.text.completedForms(of: word) {
                if let id = vocabulary.id(of: form) { note(id, matches: position, quality: Self.completedForm) }
            }
        }
    }

    private mutating func note(_ id: Int32, matches position: Int, quality: Float) {
        var slot = Int(slotOfWord[Int(id)])
        if slot < 0 {
            slot = qualities.count / wordCount
            slotOfWord[Int(id)] = Int32(slot)
            qualities.append(contentsOf: repeatElement(0, count: wordCount))
        }
        let cell = slot * wordCount + position
        if quality > qualities[cell] {
            if qualities[cell] == 0 { matched[position].append(id) }
            qualities[cell] = quality
        }
    }

    /// The entries worth ranking, with their score and confidence: those
    /// matching every essential word; when fewer than ``enoughMatches`` (or
    /// `limit`, when smaller) do, also those missing one.
    mutating func candidates(limit: Int) -> [(entry: Int32, score: Double, confidence: Double)] {
        let groups = essential.map { position in
            (position: position, size: matched[position].reduce(0) { $0 + index.postings[Int($1)].count })
        }.sorted { $0.size < $1.size }
        var seen = [Bool](repeating: false, count: index.entryCount)
        var found: [(entry: Int32, score: Double, confidence: Double)] = []
        for allowedMisses in 0...min(1, groups.count - 1) {
            if allowedMisses == 1, found.count >= min(limit, Self.enoughMatches) { break }
            for group in groups.prefix(allowedMisses + 1) {
                for id in matched[group.position] {
                    for entry in index.postings[Int(id)] where !seen[Int(entry)] {
                        guard let score = score(entry, allowedMisses: allowedMisses) else { continue }
                        seen[Int(entry)] = true
                        found.append((entry, score, max(0, min(1, score / fullWeight))))
                    }
                }
            }
        }
        return found
    }

    /// The score of `entry`, or nil when it misses more essential words than allowed.
    private mutating func score(_ entry: Int32, allowedMisses: Int) -> Double? {
        let start = Int(index.entryStart[Int(entry)]), end = Int(index.entryStart[Int(entry) + 1])
        let required = Int(index.requiredCount[Int(entry)])
        for word in 0..<wordCount { best[word] = 0 }
        var unasked = 0
        for position in start..<end {
            let slot = Int(slotOfWord[Int(index.entryWords[position])])
            if slot < 0 {
                if position - start < required { unasked += 1 }
                continue
            }
            for word in 0..<wordCount { best[word] = max(best[word], qualities[slot * wordCount + word]) }
        }
        var misses = 0
        var score = -Double(unasked) * Self.unaskedWordCost
        for word in 0..<wordCount {
            if best[word] > 0 {
                score += weights[word] * Double(best[word])
            } else if essential.contains(word) {
                misses += 1
                score -= weights[word] * Self.missingWordCost
            }
        }
        return misses > allowedMisses ? nil : score
    }
}
