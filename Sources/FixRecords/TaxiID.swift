/// The operator's code of a taxi (its licence number, say), as written in the
/// devices file and shown to passengers.
public struct TaxiID: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let text: String

    public init(_ text: String) {
        self.text = text
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    public var description: String { text }

    public static func < (lhs: TaxiID, rhs: TaxiID) -> Bool { lhs.text < rhs.text }
}
