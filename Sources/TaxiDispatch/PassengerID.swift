/// A passenger's account id, as the API knows the caller; the engine uses
/// it to hold each passenger to one open request (SPEC D3).
public struct PassengerID: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral, Codable {
    /// The id as text.
    public let text: String

    /// Creates an id from its text.
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

    public static func < (lhs: PassengerID, rhs: PassengerID) -> Bool { lhs.text < rhs.text }
}
