import Identifiers

/// The engine's number for a reservation, given in the order reservations
/// are made (SPEC D5). Shown as `V3`.
public struct ReservationID: NumberedIdentifier {
    public static let letter: Character = "V"
    public let number: Int

    public init(_ number: Int) {
        self.number = number
    }
}
