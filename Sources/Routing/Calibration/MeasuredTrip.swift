import Foundation
import GeoKit

/// A real trip with its measured duration (a taxi meter's record): what the
/// speed profile is calibrated against and scored on.
public struct MeasuredTrip: Sendable, Equatable {
    /// When the trip started.
    public var depart: Date
    public var from: Coordinate
    public var to: Coordinate
    /// How long it took, in seconds.
    public var durationSeconds: Double

    public init(depart: Date, from: Coordinate, to: Coordinate, durationSeconds: Double) {
        self.depart = depart
        self.from = from
        self.to = to
        self.durationSeconds = durationSeconds
    }
}
