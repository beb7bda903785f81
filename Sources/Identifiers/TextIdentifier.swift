/// An id that is text as someone wrote it (a taxi's code, a zone's id, a
/// passenger's account): written, read and encoded as that text, ordered by
/// it unless the type says otherwise. The conforming type only says what
/// the id is of; the rest is here once.
public protocol TextIdentifier: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral, Codable {
    /// The id as written.
    var text: String { get }

    /// The id of `text`.
    init(_ text: String)
}

extension TextIdentifier {
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

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.text < rhs.text }
}
