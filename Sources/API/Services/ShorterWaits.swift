import DispatchRuntime
import Foundation
import GeoKit
import Routing
import Zones

/// Nearby zones where a passenger would be picked up sooner by walking
/// there than by waiting where they stand (CLup's suggestion, SPEC D4):
/// for each zone met on rings around the point, a place a taxi can stop
/// at in that zone, the walk to it, and that zone's expected wait.
struct ShorterWaits: Sendable {
    /// One zone worth the walk.
    struct Suggestion: Sendable {
        var zone: Zone
        /// Where a taxi would stop for the passenger in that zone.
        var stop: Coordinate
        var walk: MeetingPoint
        var expectedWait: Duration
        /// The walk and the wait together: when a taxi would be there.
        var totalSeconds: Double { walk.walkSeconds + expectedWait / .seconds(1) }
    }

    let dispatcher: Dispatcher
    let zones: ActiveZones
    let meetingPoints: MeetingPoints

    /// How far from the point zones are looked for, metres.
    static let ringsMetres: [Double] = [150, 300, 450, 600, 750, 900]
    /// How many directions each ring is looked in.
    static let directions = 12
    /// How much sooner a zone must be to be suggested: a walk for less is not worth it.
    static let worthwhileSeconds = 60.0
    /// The most zones suggested.
    static let most = 3

    /// The zones near `point` (outside `zone`, whose expected wait is `waitHere`, nil when
    /// unknown) where walking and waiting gets a taxi at least a minute sooner, soonest first.
    func suggestions(near point: Coordinate, outside zone: ZoneID, waitHere: Duration?, depart: Date) async -> [Suggestion] {
        let index = zones.current
        var firstSpot: [ZoneID: (zone: Zone, spot: Coordinate)] = [:]
        var order: [ZoneID] = []
        for metres in Self.ringsMetres {
            for step in 0..<Self.directions {
                let spot = Self.point(from: point, metres: metres, bearingDegrees: Double(step) * 360 / Double(Self.directions))
                guard let other = index.zone(at: spot), other.id != zone, firstSpot[other.id] == nil else { continue }
                firstSpot[other.id] = (other, spot)
                order.append(other.id)
            }
        }
        var found: [Suggestion] = []
        for id in order {
            guard let (other, spot) = firstSpot[id] else { continue }
            let stop: Coordinate
            do {
                stop = try meetingPoints.meetingPoint(for: spot, depart: depart)?.stop ?? spot
            } catch {
                continue
            }
            guard index.zone(at: stop)?.id == id, let wait = await dispatcher.expectedWait(at: stop, in: id) else { continue }
            let suggestion = Suggestion(zone: other, stop: stop, walk: meetingPoints.walk(from: point, to: stop, depart: depart), expectedWait: wait)
            if let waitHere, suggestion.totalSeconds > waitHere / .seconds(1) - Self.worthwhileSeconds { continue }
            found.append(suggestion)
        }
        return Array(found.sorted { $0.totalSeconds < $1.totalSeconds }.prefix(Self.most))
    }

    /// The point `metres` from `origin` towards `bearingDegrees` (0 north, 90 east), on a sphere.
    static func point(from origin: Coordinate, metres: Double, bearingDegrees: Double) -> Coordinate {
        let bearing = bearingDegrees * .pi / 180
        let metresPerDegree = Coordinate.earthRadiusMetres * .pi / 180
        return Coordinate(
            longitude: origin.longitude + metres * sin(bearing) / (metresPerDegree * cos(origin.latitude * .pi / 180)),
            latitude: origin.latitude + metres * cos(bearing) / metresPerDegree)
    }
}
