/// An id the dispatch engine numbers in the order things arrive (a ride
/// request, a reservation): encoded as the number, shown as a letter and
/// the number (`R12`), ordered by age. The conforming type only names its
/// letter; the rest is here once.
public protocol NumberedIdentifier: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
    /// The letter the id is shown with (`R` for `R12`).
    static var letter: Character { get }

    /// The number, from 1.
    var number: Int { get }

    /// The id with `number`.
    init(_ number: Int)
}

extension NumberedIdentifier {
    /// The letter and the number, as logs and the API show it.
    public var description: String { "\(Self.letter)\(number)" }

    /// The id written `text`: the letter and the number (`R12`), or the
    /// number alone; nil for anything else, a number of more than 12
    /// digits or below 1 included.
    public init?(text: String) {
        let digits = text.first == Self.letter ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.count <= 12, digits.allSatisfy(\.isASCII), let number = Int(digits), number > 0 else {
            return nil
        }
        self.init(number)
    }

    /// Decodes the id from its number.
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(Int.self))
    }

    /// Encodes the id as its number.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(number)
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.number < rhs.number }
}
