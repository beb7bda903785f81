/// The operator's code of a taxi (its licence number, say), as written in the
/// devices file and shown to passengers.
public struct TaxiID: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral, Codable {
    public let text: String

    public init(_ text: String) {
        self.text = text
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

    public static func < (lhs: TaxiID, rhs: TaxiID) -> Bool { lhs.text < rhs.text }
}
