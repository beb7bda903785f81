// Whoever imports DispatchCore uses its ids, and so the members they share (swift-nio's
// umbrella module re-exports NIOCore the same way).
@_exported import Identifiers

/// A passenger's account id, as the API knows the caller; the engine uses
/// it to hold each passenger to one open request (SPEC D3).
public struct PassengerID: TextIdentifier {
    public let text: String

    public init(_ text: String) {
        self.text = text
    }
}
