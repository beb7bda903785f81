/// The operator's code of a taxi (its licence number, say), as written in the
/// devices file and shown to passengers.
public struct TaxiID: TextIdentifier {
    public let text: String

    public init(_ text: String) {
        self.text = text
    }
}
