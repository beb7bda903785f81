import FixRecords
import Zones

/// A zone with free taxis as the dispatcher sees it for a pickup (SPEC D4):
/// its best free taxi and that taxi's ETA to the pickup.
public struct ZoneChoice: Equatable, Sendable {
    /// The zone.
    public let zone: ZoneID
    /// Its free taxi with the shortest ETA to the pickup.
    public let taxi: TaxiID
    /// That taxi's driving time to the pickup.
    public let eta: Duration

    /// `zone`, whose best free taxi `taxi` is `eta` from the pickup.
    public init(zone: ZoneID, taxi: TaxiID, eta: Duration) {
        self.zone = zone
        self.taxi = taxi
        self.eta = eta
    }
}
