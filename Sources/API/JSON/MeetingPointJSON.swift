import DispatchCore
import DispatchRuntime
import GeoKit
import JSONKit
import Routing

/// A meeting point (SPEC R5): where the taxi stops for a passenger who
/// asked where none can, and the passenger's walk there from `from`.
struct MeetingPointJSON: Codable, Equatable, Sendable {
    /// Where the taxi stops.
    var lon: Double
    var lat: Double
    /// Where the passenger asked to be picked up.
    var from: PointJSON
    /// The walk's expected time, seconds.
    var walkS: Double
    /// The walk's length, metres.
    var walkM: Double
    /// True when the walk was routed on the walking graph, false when it is
    /// the straight line stretched by a city's usual detour (no walking graph).
    var walkRouted: Bool

    /// The JSON of a ride's walk to its pickup `stop`.
    init(stop: Coordinate, walk: PickupWalk) {
        lon = stop.longitude
        lat = stop.latitude
        from = PointJSON(walk.from)
        walkS = JSONWriter.roundedTenths(walk.seconds)
        walkM = JSONWriter.roundedTenths(walk.metres)
        walkRouted = walk.routed
    }
}

extension PickupWalk {
    /// The walk from `pickup` to `meetingPoint`'s stop.
    init(from pickup: Coordinate, to meetingPoint: MeetingPoint) {
        self.init(from: pickup, seconds: meetingPoint.walkSeconds, metres: meetingPoint.walkMetres, routed: meetingPoint.walkRouted)
    }
}
