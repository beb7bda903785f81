/// Where the router gets per-edge travel times for an hour of the week.
///
/// The speed profile over free-flow times (``ProfiledEdgeSpeeds``) is the
/// first source; live speeds measured by the fleet can replace it segment by
/// segment later by conforming to this protocol (and falling back to the
/// profile for segments without data). The router customizes one CCH
/// metric per hour from what this returns.
public protocol EdgeSpeedSource: Sendable {
    /// Travel time of every edge, in ms, for departures in `hourOfWeek`
    /// (0 = Monday 00:00–01:00 local time); ``unreachableMs`` closes an edge.
    func edgeDurations(hourOfWeek: Int) -> [UInt32]

    /// Equal for two hours exactly when their ``edgeDurations(hourOfWeek:)``
    /// are equal, so the router customizes each distinct week-hour once.
    func durationsKey(hourOfWeek: Int) -> Int
}

extension EdgeSpeedSource {
    /// Every hour distinct: the safe default.
    public func durationsKey(hourOfWeek: Int) -> Int { hourOfWeek }
}

/// Free-flow edge durations scaled by a ``SpeedProfile`` factor of each edge's road class.
public struct ProfiledEdgeSpeeds: EdgeSpeedSource {
    /// Free-flow travel times (ms), from the graph.
    public let freeFlowMs: [UInt32]
    /// Road class of each edge, from the graph.
    public let roadClass: [RoadClass]
    /// The factors applied.
    public let profile: SpeedProfile

    /// The graph's free-flow durations under `profile`.
    public init(graph: RoadGraph, profile: SpeedProfile = .denseCity) {
        freeFlowMs = graph.edgeDurationMs
        roadClass = graph.edgeRoadClass
        self.profile = profile
    }

    /// The first hour of the week whose factors equal those of `hourOfWeek` for every class.
    public func durationsKey(hourOfWeek: Int) -> Int {
        let column = RoadClass.allCases.map { profile.factor($0, hourOfWeek: hourOfWeek) }
        return (0..<hourOfWeek).first { hour in
            RoadClass.allCases.allSatisfy { profile.factor($0, hourOfWeek: hour) == column[Int($0.rawValue)] }
        } ?? hourOfWeek
    }

    /// Free-flow durations divided by the hour's factor of each edge's class.
    public func edgeDurations(hourOfWeek: Int) -> [UInt32] {
        let factors = RoadClass.allCases.map { profile.factor($0, hourOfWeek: hourOfWeek) }
        return zip(freeFlowMs, roadClass).map { duration, roadClass in
            guard duration != unreachableMs else { return unreachableMs }
            let scaled = (Double(duration) / Double(factors[Int(roadClass.rawValue)])).rounded()
            return scaled >= Double(unreachableMs) ? unreachableMs - 1 : UInt32(scaled)
        }
    }
}
