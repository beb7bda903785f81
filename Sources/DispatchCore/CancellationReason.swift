/// Why an open request was cancelled (SPEC D3, D4).
public enum CancellationReason: Equatable, Sendable, Codable {
    /// The passenger (or a dispatcher for them) cancelled it.
    case byPassenger
    /// The passenger did not confirm waiting in the passenger queue in time.
    case notConfirmed
    /// A new zone set left its pickup outside every zone (SPEC Z4).
    case outsideZones
}
