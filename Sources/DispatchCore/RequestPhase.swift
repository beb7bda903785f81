import FixRecords

/// Where an open ride request stands (SPEC D3, D4, D6).
public enum RequestPhase: Equatable, Sendable, Codable {
    /// In its zone's passenger queue, waiting for a taxi not yet tried;
    /// `confirmBy` is the deadline of a confirmation the passenger still owes.
    case waiting(confirmBy: Duration?)
    /// Offered to a taxi that has not answered yet.
    case offered(Offer)
    /// Accepted by `taxi`, on its way to the pickup; `eta` is the estimate
    /// given at acceptance (nil when none could be made).
    case assigned(taxi: TaxiID, eta: Duration?)
    /// The taxi reported its arrival at the pickup at `since`.
    case arrived(taxi: TaxiID, since: Duration)
    /// The passenger is aboard.
    case aboard(taxi: TaxiID)

    /// The taxi that holds the request (offered, assigned or riding), if any.
    public var taxi: TaxiID? {
        switch self {
        case .waiting: nil
        case .offered(let offer): offer.taxi
        case .assigned(let taxi, _), .arrived(let taxi, _), .aboard(let taxi): taxi
        }
    }
}
