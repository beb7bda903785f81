// Whoever imports FixRecords uses its ids, and so the members they share (swift-nio's
// umbrella module re-exports NIOCore the same way).
@_exported import Identifiers

/// The operator's code of a taxi (its licence number, say), as written in the
/// devices file and shown to passengers.
public struct TaxiID: TextIdentifier {
    public let text: String

    public init(_ text: String) {
        self.text = text
    }
}
