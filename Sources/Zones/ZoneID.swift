/// The stable identifier of a zone, as written in the zone file.
///
/// Ids order zones for the border rule (see ``BorderRule``): ids that are
/// whole numbers compare as numbers and come before all other ids; other ids
/// compare by their Unicode scalars. `"9" < "10" < "abc" < "abd"`.
public struct ZoneID: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral, Codable {
    /// The id as text; numeric ids are written without a fraction.
    public let text: String
    private let number: Int64?

    /// Creates an id from its text.
    public init(_ text: String) {
        self.text = text
        self.number = Int64(text)
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    public var description: String { text }

    /// Decodes the id from its text.
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the id as its text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }

    public static func < (lhs: ZoneID, rhs: ZoneID) -> Bool {
        switch (lhs.number, rhs.number) {
        case let (left?, right?): return left != right ? left < right : lhs.text < rhs.text
        case (.some, nil): return true
        case (nil, .some): return false
        case (nil, nil): return lhs.text.unicodeScalars.lexicographicallyPrecedes(rhs.text.unicodeScalars)
        }
    }
}
