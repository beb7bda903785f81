import Foundation

/// What a learning run simulates: how many taxis, for how long, how noisy
/// their terminals are, and when the learner is scored.
public struct LearningSimulationSettings: Sendable {
    /// Taxis driving random trips.
    public var taxis = 300
    /// Simulated hours at which the service's estimates are scored.
    public var checkpointHours: [Double] = [1, 6, 24, 168]
    /// Seconds between two fixes of a terminal.
    public var fixIntervalSeconds = 30.0
    /// The radial standard deviation of a fix's GPS error, metres.
    public var gpsNoiseMetres = 10.0
    /// The fraction of fixes lost on the way, in [0, 1).
    public var dropRate = 0.0
    /// Seconds between two re-customizations of the service's router (the live layer's cadence).
    public var recustomizeSeconds = 30.0
    /// Random trips scored at each checkpoint.
    public var scoredTrips = 300
    /// Every random choice comes from this seed.
    public var seed: UInt64 = 7
    /// The first simulated moment (local time of the graph's city decides the slots).
    public var start: Date

    /// Settings starting at `start`, the rest at their defaults.
    public init(start: Date) {
        self.start = start
    }

    /// What is wrong with these settings, if anything, one sentence each.
    public var problems: [String] {
        var problems: [String] = []
        if taxis < 1 { problems.append("--taxis must be 1 or more") }
        if checkpointHours.isEmpty || checkpointHours.contains(where: { !($0 > 0) || !$0.isFinite }) {
            problems.append("--report-at needs one or more numbers of hours above 0")
        }
        if !(fixIntervalSeconds >= 5) { problems.append("--fix-interval must be 5 seconds or more") }
        if !(gpsNoiseMetres >= 0) || !gpsNoiseMetres.isFinite { problems.append("--gps-noise must be 0 metres or more") }
        if !(0..<1).contains(dropRate) { problems.append("--drop-rate must be in [0, 1)") }
        if scoredTrips < 1 { problems.append("--scored-trips must be 1 or more") }
        return problems
    }
}
