/// The engine's number for a ride request, given in the order requests
/// arrive: a lower number is an older request, which is how a zone's
/// passenger queue is ordered (SPEC D4).
public struct RideRequestID: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
    /// The request's number, from 1.
    public let number: Int

    /// The id with this number.
    public init(_ number: Int) {
        self.number = number
    }

    /// `R` and the number, as logs and the API show it.
    public var description: String { "R\(number)" }

    /// Decodes the id from its number.
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(Int.self))
    }

    /// Encodes the id as its number.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(number)
    }

    public static func < (lhs: RideRequestID, rhs: RideRequestID) -> Bool { lhs.number < rhs.number }
}
