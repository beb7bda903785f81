/// The engine's number for a reservation, given in the order reservations
/// are made (SPEC D5).
public struct ReservationID: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
    /// The reservation's number, from 1.
    public let number: Int

    /// The id with this number.
    public init(_ number: Int) {
        self.number = number
    }

    /// `V` and the number, as logs and the API show it.
    public var description: String { "V\(number)" }

    /// Decodes the id from its number.
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(Int.self))
    }

    /// Encodes the id as its number.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(number)
    }

    public static func < (lhs: ReservationID, rhs: ReservationID) -> Bool { lhs.number < rhs.number }
}
