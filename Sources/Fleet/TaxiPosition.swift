import FixRecords
import Foundation
import GeoKit
import Zones

/// Where a taxi was at one moment, as its terminal reported it.
public struct TaxiPosition: Sendable, Equatable {
    public var taxiId: TaxiID
    /// WGS84 position.
    public var coordinate: Coordinate
    /// When the terminal took the fix (UTC).
    public var time: Date
    /// Ground speed in km/h.
    public var speedKmh: Double
    /// Heading in degrees clockwise from north, 0..<360.
    public var heading: Double
    /// The zone at `coordinate` by the border rule; nil when outside the service area.
    public var zoneId: ZoneID?

    public init(taxiId: TaxiID, coordinate: Coordinate, time: Date, speedKmh: Double, heading: Double, zoneId: ZoneID?) {
        self.taxiId = taxiId
        self.coordinate = coordinate
        self.time = time
        self.speedKmh = speedKmh
        self.heading = heading
        self.zoneId = zoneId
    }
}
