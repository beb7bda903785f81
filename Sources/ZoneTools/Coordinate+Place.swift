import Foundation
import GeoKit

extension Coordinate {
    /// `lon,lat` with six decimals (about 0.1 m), the way the tools' reports
    /// point a planner to a place on the map.
    public var placeText: String {
        String(format: "%.6f,%.6f", longitude, latitude)
    }
}
