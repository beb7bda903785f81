import Foundation

/// Where the router gets per-edge travel times for a departure.
///
/// The speed profile over free-flow times (``ProfiledEdgeSpeeds``) is the
/// first source; speeds learned from the fleet (``LearnedEdgeSpeeds``)
/// replace it edge by edge where there is data, falling back to the
/// profile. The router customizes one CCH metric per distinct durations
/// key from what this returns.
public protocol EdgeSpeedSource: Sendable {
    /// Travel time of every edge, in ms, for departures in `hourOfWeek`
    /// (0 = Monday 00:00–01:00 local time); ``unreachableMs`` closes an edge.
    func edgeDurations(hourOfWeek: Int) -> [UInt32]

    /// Equal for two hours exactly when their ``edgeDurations(hourOfWeek:)``
    /// are equal, so the router customizes each distinct week-hour once.
    func durationsKey(hourOfWeek: Int) -> Int

    /// Travel time of every edge, in ms, for departures at `date`, whose
    /// local time in `timeZone` decides the hour (or finer slot) of the week.
    func edgeDurations(departing date: Date, timeZone: TimeZone) -> [UInt32]

    /// Equal for two departures exactly when their durations are equal.
    func durationsKey(departing date: Date, timeZone: TimeZone) -> Int

    /// Where the durations of a departure at `date` come from.
    func provenance(departing date: Date, timeZone: TimeZone) -> SpeedProvenance
}

extension EdgeSpeedSource {
    /// Every hour distinct: the safe default.
    public func durationsKey(hourOfWeek: Int) -> Int { hourOfWeek }

    /// The durations of the departure's hour of the week.
    public func edgeDurations(departing date: Date, timeZone: TimeZone) -> [UInt32] {
        edgeDurations(hourOfWeek: SpeedProfile.hourOfWeek(date, in: timeZone))
    }

    /// The key of the departure's hour of the week.
    public func durationsKey(departing date: Date, timeZone: TimeZone) -> Int {
        durationsKey(hourOfWeek: SpeedProfile.hourOfWeek(date, in: timeZone))
    }

    /// A weekly profile, unless the source says otherwise.
    public func provenance(departing date: Date, timeZone: TimeZone) -> SpeedProvenance { .profile }
}

/// Where the travel times of an answer come from, as the API tells it.
public enum SpeedProvenance: String, Sendable, Codable, CaseIterable {
    /// The weekly speed profile (built in, fitted to trips, or given with `--speed-profile`).
    case profile
    /// The weekly speeds learned from the fleet's fixes, over the profile where they have no data.
    case learned
    /// The live speeds of the last minutes, over the learned weekly ones.
    case live
}

/// Free-flow edge durations scaled by a ``SpeedProfile``: the factor of each
/// edge's road class, times that of its lane class, times that of its zone
/// (when the graph knows its edges' zones), for the hour; minor approaches
/// to a traffic signal first get the profile's minor-signal delay.
///
/// Routes follow these times (the router customizes its metric from them),
/// so a slow zone or narrow streets are avoided, not only reported slower.
public struct ProfiledEdgeSpeeds: EdgeSpeedSource {
    /// Free-flow travel times (ms), from the graph.
    public let freeFlowMs: [UInt32]
    /// Road class of each edge, from the graph.
    public let roadClass: [RoadClass]
    /// Lane class of each edge, from the graph.
    public let laneClass: [LaneClass]
    /// How each edge arrives at a signalled junction, from the graph.
    public let signalApproach: [SignalApproach]
    /// The zone of each edge, when the graph was built with zones.
    public let zones: EdgeZones?
    /// The factors applied.
    public let profile: SpeedProfile
    /// Per hour of the week, the first hour with the same factors: the
    /// durations key, worked out once because every route query asks for it.
    private let firstHourAlike: [Int]

    /// The graph's free-flow durations under `profile`; `zones` (the graph's
    /// ``EdgeZones``) lets the profile's zone factors apply.
    public init(graph: RoadGraph, profile: SpeedProfile = .denseCity, zones: EdgeZones? = nil) {
        precondition(zones.map { $0.edgeZone.count == graph.edgeCount } ?? true, "zones must cover the graph's edges")
        freeFlowMs = graph.edgeDurationMs
        roadClass = graph.edgeRoadClass
        laneClass = graph.edgeLaneClass
        signalApproach = graph.edgeSignalApproach
        self.zones = zones
        self.profile = profile
        var firstWithFactors: [HourFactors: Int] = [:]
        firstHourAlike = (0..<SpeedProfile.hoursPerWeek).map { hour in
            let column = Self.factors(of: profile, zones: zones, hourOfWeek: hour)
            if let first = firstWithFactors[column] { return first }
            firstWithFactors[column] = hour
            return hour
        }
    }

    /// Every factor the profile applies in one hour of the week: per road
    /// class, per lane class, and per zone of ``zones`` (in its order).
    struct HourFactors: Hashable {
        var classes: [Float]
        var lanes: [Float]
        var zones: [Float]
    }

    /// The factors of `hourOfWeek`.
    func factors(hourOfWeek: Int) -> HourFactors {
        Self.factors(of: profile, zones: zones, hourOfWeek: hourOfWeek)
    }

    private static func factors(of profile: SpeedProfile, zones: EdgeZones?, hourOfWeek: Int) -> HourFactors {
        HourFactors(classes: RoadClass.allCases.map { profile.factor($0, hourOfWeek: hourOfWeek) },
                    lanes: LaneClass.allCases.map { profile.laneFactor($0, hourOfWeek: hourOfWeek) },
                    zones: (zones?.zoneIDs ?? []).map { profile.zoneFactor($0, hourOfWeek: hourOfWeek) })
    }

    /// The first hour of the week whose factors equal those of `hourOfWeek` for every class and zone.
    public func durationsKey(hourOfWeek: Int) -> Int {
        firstHourAlike[hourOfWeek]
    }

    /// Free-flow durations (plus the minor-signal delay on minor approaches)
    /// divided by the hour's class × lane × zone factor of each edge.
    public func edgeDurations(hourOfWeek: Int) -> [UInt32] {
        let factors = factors(hourOfWeek: hourOfWeek)
        return (0..<freeFlowMs.count).map { duration(of: $0, factors: factors) }
    }

    /// The duration of `edge` under `factors`, ms.
    @inline(__always)
    func duration(of edge: Int, factors: HourFactors) -> UInt32 {
        guard freeFlowMs[edge] != unreachableMs else { return unreachableMs }
        let delay = signalApproach[edge] == .minor ? profile.minorSignalDelaySeconds * 1000 : 0
        var factor = factors.classes[Int(roadClass[edge].rawValue)] * factors.lanes[Int(laneClass[edge].rawValue)]
        if let zone = zones?.edgeZone[edge], zone != EdgeZones.noZone { factor *= factors.zones[Int(zone)] }
        let scaled = ((Double(freeFlowMs[edge]) + delay) / Double(factor)).rounded()
        return scaled >= Double(unreachableMs) ? unreachableMs - 1 : UInt32(scaled)
    }

    /// log(duration ÷ free-flow duration) of `edge` under `factors`; 0 for a closed edge.
    func logRatio(of edge: Int, factors: HourFactors) -> Double {
        let freeFlow = freeFlowMs[edge], duration = duration(of: edge, factors: factors)
        return duration == unreachableMs || freeFlow == 0 ? 0 : log(Double(duration) / Double(freeFlow))
    }
}
