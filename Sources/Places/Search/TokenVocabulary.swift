/// The distinct words of a place index, sorted, with what a search needs to
/// find the ones a typed word may mean: equal, begun by it (autocomplete), or
/// one or two typing errors away (Damerau–Levenshtein), one error found
/// through each word's one-letter deletions (the SymSpell method) rather
/// than by comparing against every word.
struct TokenVocabulary: Sendable {
    /// Words shorter than this are never taken as a typo of another.
    static let shortestFuzzyWord = 4
    /// Words this long may carry two typing errors.
    static let shortestWordWithTwoTypos = 8
    /// At most this many completions of a prefix are tried, the most used first.
    static let completionsPerPrefix = 24

    /// Every word, sorted.
    let words: [String]
    /// Typed words shorter than this are never taken as a typo (words of
    /// the vocabulary shorter than ``shortestFuzzyWord`` never are).
    let shortestTypedWord: Int
    private let idByWord: [String: Int32]
    /// How many entries carry each word, for choosing completions.
    private let frequency: [Int32]
    /// Each one-letter deletion of a fuzzy-eligible word, to the words it comes from.
    private let deletions: [String: [Int32]]
    /// The words that may carry two typing errors, by their first byte.
    private let longWordsByInitial: [UInt8: [Int32]]

    /// Builds the vocabulary of `words` with how many entries carry each.
    init(counts: [String: Int32], shortestTypedWord: Int = shortestFuzzyWord) {
        words = counts.keys.sorted()
        self.shortestTypedWord = shortestTypedWord
        var idByWord: [String: Int32] = [:]
        idByWord.reserveCapacity(words.count)
        for (index, word) in words.enumerated() { idByWord[word] = Int32(index) }
        self.idByWord = idByWord
        frequency = words.map { counts[$0] ?? 0 }
        var deletions: [String: [Int32]] = [:]
        for (index, word) in words.enumerated() where Self.isFuzzyEligible(word) {
            for deletion in Self.deletions(of: word) { deletions[deletion, default: []].append(Int32(index)) }
        }
        self.deletions = deletions
        var longWordsByInitial: [UInt8: [Int32]] = [:]
        for (index, word) in words.enumerated() where Self.isFuzzyEligible(word) && word.utf8.count >= Self.shortestWordWithTwoTypos - 2 {
            longWordsByInitial[word.utf8.first!, default: []].append(Int32(index))
        }
        self.longWordsByInitial = longWordsByInitial
    }

    /// The id of `word`, when the vocabulary has it.
    func id(of word: String) -> Int32? { idByWord[word] }

    /// The words one typing error from `word`, or when none is (and `word`
    /// is not a word of the vocabulary) two errors for long words, with
    /// their distance; none for short words and numbers. One error is found
    /// through the deletion table; two, by comparing the long words of the
    /// same first letter and a length within two, the slow part of a search,
    /// spared when a nearer word is known.
    func typos(of word: String) -> [(id: Int32, distance: Int)] {
        guard Self.isFuzzyEligible(word, shortest: shortestTypedWord) else { return [] }
        let typed = Array(word.utf8)
        var candidates: Set<Int32> = []
        if let found = deletions[word] { candidates.formUnion(found) }
        for deletion in Self.deletions(of: word) {
            if let id = idByWord[deletion] { candidates.insert(id) }
            if let found = deletions[deletion] { candidates.formUnion(found) }
        }
        var found: [(id: Int32, distance: Int)] = candidates.compactMap { id in
            let candidate = words[Int(id)]
            guard candidate != word, Self.editDistance(typed, Array(candidate.utf8), atMost: 1) <= 1 else { return nil }
            return (id, 1)
        }
        guard found.isEmpty, idByWord[word] == nil, typed.count >= Self.shortestWordWithTwoTypos, let initial = typed.first
        else { return found }
        for id in longWordsByInitial[initial, default: []] where !candidates.contains(id) {
            let candidate = Array(words[Int(id)].utf8)
            guard abs(candidate.count - typed.count) <= 2 else { continue }
            if Self.editDistance(typed, candidate, atMost: 2) == 2 { found.append((id, 2)) }
        }
        return found
    }

    /// The words beginning with `prefix` (itself excluded), the most used first.
    func completions(of prefix: String) -> [Int32] {
        var low = words.startIndex, high = words.endIndex
        while low < high {
            let middle = (low + high) / 2
            if words[middle] < prefix { low = middle + 1 } else { high = middle }
        }
        var found: [Int32] = []
        var index = low
        while index < words.endIndex, words[index].hasPrefix(prefix) {
            if words[index] != prefix { found.append(Int32(index)) }
            index += 1
        }
        guard found.count > Self.completionsPerPrefix else { return found }
        return Array(found.sorted { frequency[Int($0)] > frequency[Int($1)] }.prefix(Self.completionsPerPrefix))
    }

    private static func isFuzzyEligible(_ word: String, shortest: Int = shortestFuzzyWord) -> Bool {
        word.utf8.count >= shortest && !word.utf8.contains { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            && word.utf8.first != UInt8(ascii: "#")
    }

    private static func deletions(of word: String) -> [String] {
        let scalars = Array(word.unicodeScalars)
        return scalars.indices.map { skipped in
            var view = String.UnicodeScalarView()
            for (index, scalar) in scalars.enumerated() where index != skipped { view.append(scalar) }
            return String(view)
        }
    }

    /// The optimal-string-alignment distance between `a` and `b` (insertions,
    /// deletions, substitutions and swaps of neighbours), or `atMost + 1`
    /// once it is sure to exceed `atMost`.
    static func editDistance(_ a: [UInt8], _ b: [UInt8], atMost limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        let width = b.count + 1
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * width) { rows in
            var before = rows.baseAddress!, previous = before + width, current = previous + width
            for j in 0...b.count { previous[j] = j }
            for i in 1...a.count {
                current[0] = i
                var rowMinimum = i
                for j in 1...b.count {
                    let cost = a[i - 1] == b[j - 1] ? 0 : 1
                    var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                    if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { value = min(value, before[j - 2] + 1) }
                    current[j] = value
                    rowMinimum = min(rowMinimum, value)
                }
                if rowMinimum > limit { return limit + 1 }
                (before, previous, current) = (previous, current, before)
            }
            return previous[b.count]
        }
    }
}
