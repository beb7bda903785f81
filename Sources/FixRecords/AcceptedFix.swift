// Whoever imports FixRecords uses the taxi ids, and so the members they share (swift-nio's
// umbrella module re-exports NIOCore the same way).
@_exported import Identifiers
import Foundation
import GeoKit
import Zones

/// A fix that passed validation (SPEC I3) and belongs to a registered taxi
/// (I4), with its zone (Z2): what the archive stores and the live index shows.
public struct AcceptedFix: Sendable, Equatable {
    public var taxiId: TaxiID
    /// The terminal that sent it (IMEI, app id...).
    public var deviceId: String
    /// The wire protocol it arrived in.
    public var wireProtocol: WireProtocol
    /// When the terminal took the fix (UTC).
    public var time: Date
    public var coordinate: Coordinate
    public var speedKmh: Double
    /// Degrees clockwise from north.
    public var heading: Double
    /// The zone by the border rule; nil outside the service area.
    public var zoneId: ZoneID?
    /// When the server received it (its own clock): what staleness is measured from.
    public var receivedAt: Date

    public init(
        taxiId: TaxiID, deviceId: String, wireProtocol: WireProtocol, time: Date, coordinate: Coordinate,
        speedKmh: Double, heading: Double, zoneId: ZoneID?, receivedAt: Date
    ) {
        self.taxiId = taxiId
        self.deviceId = deviceId
        self.wireProtocol = wireProtocol
        self.time = time
        self.coordinate = coordinate
        self.speedKmh = speedKmh
        self.heading = heading
        self.zoneId = zoneId
        self.receivedAt = receivedAt
    }
}
