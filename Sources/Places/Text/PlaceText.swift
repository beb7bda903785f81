import Foundation

/// Turns what a person typed, or a name from the map, into the words a
/// place index compares: lower case, diacritics and punctuation dropped,
/// apostrophes closed up (`Macy's` reads `macys`), ordinals made numbers
/// (`42nd` reads `42`), and each word in its vocabulary's canonical form.
public struct PlaceText: Sendable {
    /// The abbreviations and minor words in use.
    public let vocabulary: PlaceVocabulary
    /// The vocabulary's spellings, to find a misspelt one without comparing against each.
    private let spellings: TokenVocabulary

    /// Creates a normaliser for `vocabulary`.
    public init(vocabulary: PlaceVocabulary = .standard) {
        self.vocabulary = vocabulary
        spellings = TokenVocabulary(counts: vocabulary.canonical.mapValues { _ in 1 }, shortestTypedWord: 3)
    }

    /// The canonical words of `text`, in order.
    public func words(_ text: String) -> [String] {
        let folded = Self.folded(text)
        var words: [String] = []
        if folded.utf8.allSatisfy({ $0 < 0x80 }) {
            var current: [UInt8] = []
            for byte in folded.utf8 {
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    current.append(byte)
                case UInt8(ascii: "'"), UInt8(ascii: "`"):
                    continue
                default:
                    if !current.isEmpty { words.append(canonical(String(decoding: current, as: UTF8.self))) }
                    current.removeAll(keepingCapacity: true)
                }
            }
            if !current.isEmpty { words.append(canonical(String(decoding: current, as: UTF8.self))) }
            return words
        }
        var current = String.UnicodeScalarView()
        for scalar in folded.unicodeScalars {
            if scalar == "'" || scalar == "`" { continue }
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                current.append(scalar)
            } else if !current.isEmpty {
                words.append(canonical(String(current)))
                current = String.UnicodeScalarView()
            }
        }
        if !current.isEmpty { words.append(canonical(String(current))) }
        return words
    }

    /// The canonical forms of the vocabulary's spellings one typing error
    /// from `word` (`fith` → `5`, `avenu` → `ave`, `wst` → `w`), for typed
    /// words of three letters or more and spellings of four or more.
    public func misspelledForms(of word: String) -> [String] {
        guard vocabulary.canonical[word] == nil else { return [] }
        let forms = spellings.typos(of: word).compactMap { typo -> String? in
            guard typo.distance == 1, let form = vocabulary.canonical[spellings.words[Int(typo.id)]], form != word else { return nil }
            return form
        }
        return Set(forms).sorted()
    }

    /// The canonical forms of the vocabulary's spellings that begin with
    /// `prefix` (`5t` → `5`, `aven` → `ave`): what a word being typed may become.
    public func completedForms(of prefix: String) -> [String] {
        Set(spellings.completions(of: prefix).compactMap { vocabulary.canonical[spellings.words[Int($0)]] }).sorted()
    }

    /// True for a word that says little (`the`, `of`).
    public func isMinor(_ word: String) -> Bool { vocabulary.minorWords.contains(word) }

    /// True for a word that can be a house number: digits, perhaps with a
    /// letter (`350`, `12a`).
    public static func isHouseNumber(_ word: String) -> Bool {
        guard let first = word.utf8.first, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return word.utf8.dropFirst().allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            || word.utf8.dropLast().allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    private func canonical(_ word: String) -> String {
        if let form = vocabulary.canonical[word] { return form }
        let bytes = Array(word.utf8)
        if bytes.count > 2, let digitsEnd = bytes.firstIndex(where: { !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
           digitsEnd > 0, ["st", "nd", "rd", "th"].contains(String(decoding: bytes[digitsEnd...], as: UTF8.self)) {
            return String(decoding: bytes[..<digitsEnd], as: UTF8.self)
        }
        return word
    }

    /// Lower case without diacritics, `ß` as `ss`, curly apostrophes straight;
    /// plain ASCII (most of what is typed) without Foundation's folding.
    private static func folded(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        return text.replacingOccurrences(of: "ß", with: "ss").replacingOccurrences(of: "\u{2019}", with: "'")
            .folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil).lowercased()
    }
}
