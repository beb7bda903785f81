import FixRecords
import Fleet
import GeoKit

/// Where taxis are now, for following a taxi on its way to a pickup (SPEC D6).
public protocol TaxiPositions: Sendable {
    /// The latest known position of `taxi`, nil when unknown.
    func position(of taxi: TaxiID) -> Coordinate?
    /// The latest known positions of `taxis`, in order (nil where unknown):
    /// one look for many taxis, as the nearest-zones query asks of thousands.
    func positions(of taxis: [TaxiID]) -> [Coordinate?]
}

extension TaxiPositions {
    /// Each taxi's ``position(of:)`` in turn.
    public func positions(of taxis: [TaxiID]) -> [Coordinate?] {
        taxis.map(position(of:))
    }
}

/// No positions: rides are followed only by what the drivers report.
public struct NoTaxiPositions: TaxiPositions {
    /// The source that knows nothing.
    public init() {}

    public func position(of taxi: TaxiID) -> Coordinate? { nil }
}

/// The live fleet index knows every taxi's latest position.
extension FleetIndex: TaxiPositions {
    public func position(of taxi: TaxiID) -> Coordinate? {
        latestPosition(of: taxi)?.coordinate
    }

    public func positions(of taxis: [TaxiID]) -> [Coordinate?] {
        latestCoordinates(of: taxis)
    }
}
