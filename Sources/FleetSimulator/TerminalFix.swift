import Foundation
import GeoKit

/// One position a simulated terminal reports: when (whole seconds, as GT06
/// carries them), where, how fast and which way.
public struct TerminalFix: Sendable, Equatable {
    /// When the fix was taken.
    public var time: Date
    /// Where, with the GPS error.
    public var coordinate: Coordinate
    /// Ground speed, km/h.
    public var speedKmh: Double
    /// Degrees clockwise from north.
    public var heading: Double

    /// A fix at `time` (rounded down to the second).
    public init(time: Date, coordinate: Coordinate, speedKmh: Double, heading: Double) {
        self.time = Date(timeIntervalSince1970: time.timeIntervalSince1970.rounded(.down))
        self.coordinate = coordinate
        self.speedKmh = speedKmh
        self.heading = heading
    }
}
