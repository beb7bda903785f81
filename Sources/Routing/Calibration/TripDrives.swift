import Foundation

/// The routes of a set of trips under one speed setting, each split by area
/// zone: how many seconds of the trip's drive fall in each zone, at the
/// road-class and lane factors the routes were found with (no hour or zone
/// factor applied yet).
///
/// The split is what lets calibration fit zone factors without rerouting for
/// every trial value: a trip's drive under zone time multipliers `m` is
/// `Σ seconds(zone) × m(zone)` as long as the routes stay the same, and a
/// reroute-and-refit pass checks that they do.
struct TripDrives {
    /// Per trip, `(zone slot, seconds)` for every zone its route crosses;
    /// slot ``outsideZones`` holds the seconds outside every zone. Nil for a
    /// trip with no route under this setting.
    var slices: [[(slot: Int, seconds: Double)]?]
    /// The number of zone slots (the graph's zones), ``outsideZones`` excluded.
    var zoneCount: Int

    /// The slot of time spent outside every zone, which no factor scales.
    static let outsideZones = -1

    /// The whole drive of `trip` in seconds with zone time multipliers `zoneMultipliers`.
    func drive(trip: Int, zoneMultipliers: [Double]) -> Double {
        guard let slices = slices[trip] else { return .nan }
        return slices.reduce(0) { $0 + $1.seconds * ($1.slot == Self.outsideZones ? 1 : zoneMultipliers[$1.slot]) }
    }

    /// Routes `trips` on `graph` under `setting` and splits each drive by zone.
    static func route(_ trips: [MeasuredTrip], setting: CalibrationSetting, graph: RoadGraph, topology: CCHTopology,
                      zones: EdgeZones?, timeZone: TimeZone, maxSnapDistanceMetres: Double,
                      snapRadiusMetres: Double) -> TripDrives {
        let profile = setting.routingProfile(zoneIDs: zones?.zoneIDs ?? [])
        let router = RoadRouter(graph: graph, topology: topology,
                            speeds: ProfiledEdgeSpeeds(graph: graph, profile: profile, zones: zones),
                            timeZone: timeZone, maxSnapDistanceMetres: maxSnapDistanceMetres,
                            snapRadiusMetres: snapRadiusMetres)
        let baseSeconds = (0..<graph.edgeCount).map { setting.baseSeconds(edge: $0, graph: graph) }
        let zoneCount = zones?.zoneIDs.count ?? 0
        let slices = trips.map { trip -> [(slot: Int, seconds: Double)]? in
            guard let driven = try? router.drivenEdges(from: trip.from, to: trip.to, depart: trip.depart) else { return nil }
            var seconds = [Double](repeating: 0, count: zoneCount + 1)
            for step in driven {
                let zone = zones.map { Int($0.edgeZone[step.edge]) }
                let slot = zone.map { $0 == Int(EdgeZones.noZone) ? zoneCount : $0 } ?? zoneCount
                seconds[slot] += baseSeconds[step.edge] * step.share
            }
            return seconds.enumerated().compactMap { slot, value in
                value > 0 ? (slot == zoneCount ? outsideZones : slot, value) : nil
            }
        }
        return TripDrives(slices: slices, zoneCount: zoneCount)
    }
}
