/// The words people shorten or spell out when they type an address, per
/// language: each maps to one canonical form so that `W 42nd St`, `West 42
/// Street` and `west forty-second street` read the same. Add a language by
/// adding a table (``german`` shows one); ``standard`` merges those in use.
public struct PlaceVocabulary: Sendable {
    /// Each spelling, lower case without diacritics, to its canonical form.
    public var canonical: [String: String]
    /// Words that say little (`the`, `of`): a query may leave them out and
    /// they count little when it has them.
    public var minorWords: Set<String>

    /// Creates a vocabulary from `groups`, each a canonical form and the
    /// spellings that mean it, and the minor words.
    public init(groups: [String: [String]], minorWords: Set<String> = []) {
        var canonical: [String: String] = [:]
        for (form, spellings) in groups {
            canonical[form] = form
            for spelling in spellings { canonical[spelling] = form }
        }
        self.canonical = canonical
        self.minorWords = minorWords
    }

    /// This vocabulary with `other`'s spellings and minor words added.
    public func merging(_ other: PlaceVocabulary) -> PlaceVocabulary {
        var merged = self
        merged.canonical.merge(other.canonical) { mine, _ in mine }
        merged.minorWords.formUnion(other.minorWords)
        return merged
    }

    /// What a place index uses unless told otherwise: English and German.
    public static let standard = english.merging(german)

    /// English street types, compass points, saints and ordinals (`fifth` and
    /// `5th` both read `5`: a house number is told apart by its place in
    /// the query, not by a suffix).
    public static let english = PlaceVocabulary(
        groups: [
            "st": ["street", "str", "saint", "sts"], "ave": ["avenue", "av", "avn", "aven", "avenu"],
            "blvd": ["boulevard", "boul", "bvd"], "pl": ["place", "plc"], "rd": ["road"], "dr": ["drive", "drv"],
            "ln": ["lane"], "ct": ["court", "crt"], "sq": ["square", "sqr"], "ter": ["terrace", "terr"],
            "pkwy": ["parkway", "pky", "pkway"], "hwy": ["highway"], "expy": ["expressway", "expwy"],
            "plz": ["plaza", "plza"], "cir": ["circle", "circ"], "aly": ["alley"], "bldg": ["building"],
            "hts": ["heights"], "mt": ["mount"], "ft": ["fort"], "ctr": ["center", "centre", "cntr"],
            "sta": ["station", "stn"], "univ": ["university"], "hosp": ["hospital"], "apt": ["apartment"],
            "e": ["east"], "w": ["west"], "n": ["north"], "s": ["south"],
            "ne": ["northeast"], "nw": ["northwest"], "se": ["southeast"], "sw": ["southwest"],
            "1": ["first", "1st"], "2": ["second", "2nd"], "3": ["third", "3rd"],
            "4": ["fourth", "4th"], "5": ["fifth", "5th"], "6": ["sixth", "6th"], "7": ["seventh", "7th"],
            "8": ["eighth", "8th"], "9": ["ninth", "9th"], "10": ["tenth", "10th"], "11": ["eleventh", "11th"],
            "12": ["twelfth", "12th"],
        ],
        minorWords: ["the", "of", "and", "at", "on", "in", "ny", "nyc", "usa", "us"])

    /// German street types (`Str.`, `Straße`), to show how a language is added.
    public static let german = PlaceVocabulary(
        groups: [
            "strasse": ["str", "strase", "strasze"], "platz": ["pl", "plz"], "allee": ["al"], "weg": [],
            "bahnhof": ["bhf", "hbf"],
        ],
        minorWords: ["der", "die", "das", "am", "an", "im"])
}
