import FixRecords

/// A ride offered to one taxi, waiting for the driver's answer until
/// ``expiresAt`` (SPEC D3).
public struct Offer: Equatable, Sendable, Codable {
    /// The taxi asked.
    public let taxi: TaxiID
    /// When the offer was made (monotonic time).
    public let madeAt: Duration
    /// When it times out unanswered: ``madeAt`` plus the offer timeout.
    public let expiresAt: Duration
}
