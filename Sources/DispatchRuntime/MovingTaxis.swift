import FixRecords
import Fleet
import GeoKit

/// Where the taxis that moved are handed over, each once: what keeps the
/// snapped positions (``PositionSnapper``) up to date by the few taxis
/// that moved, never by reading the whole fleet again.
public protocol MovingTaxis: Sendable {
    /// The taxis that appeared or moved since the last call, each once,
    /// with their latest coordinates.
    func takeMoved() -> [(taxi: TaxiID, coordinate: Coordinate)]
}

/// The live fleet index notes every taxi that moves.
extension FleetIndex: MovingTaxis {}
