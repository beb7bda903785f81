import Identifiers

/// The engine's number for a ride request, given in the order requests
/// arrive: a lower number is an older request, which is how a zone's
/// passenger queue is ordered (SPEC D4). Shown as `R12`.
public struct RideRequestID: NumberedIdentifier {
    public static let letter: Character = "R"
    public let number: Int

    public init(_ number: Int) {
        self.number = number
    }
}
