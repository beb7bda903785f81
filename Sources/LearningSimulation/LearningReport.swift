import Foundation
import GeoKit
import Routing

/// How close one router's trip durations come to the truth.
public struct TripScore: Sendable, Equatable, Codable {
    /// Trips scored (both routers found a route).
    public var trips: Int
    /// Median |estimate − truth| ÷ truth.
    public var medianAbsolutePercentageError: Double
    /// Root mean squared log error, log(1 + seconds).
    public var rootMeanSquaredLogError: Double
    /// Median estimate ÷ truth: below 1, estimates are too short.
    public var medianRatio: Double

    /// Scores `estimated` against `truth`, pairwise.
    init(estimated: [Double], truth: [Double]) {
        let accuracy = TravelTimeAccuracy(estimated: estimated, measured: truth)
        trips = accuracy.trips
        medianAbsolutePercentageError = accuracy.medianAbsolutePercentageError
        rootMeanSquaredLogError = accuracy.rootMeanSquaredLogError
        let ratios = zip(estimated, truth).map { $0 / $1 }.sorted()
        medianRatio = ratios.isEmpty ? .nan : ratios[ratios.count / 2]
    }

    /// `estimate`'s durations of `trips` leaving at `depart` against the
    /// trips at `truth`'s speeds: the drive plus the true trip overhead.
    init(_ trips: [(Coordinate, Coordinate)], depart: Date, truth: RoadRouter, estimate: RoadRouter) {
        var estimated: [Double] = [], measured: [Double] = []
        for (from, to) in trips {
            guard let real = try? truth.timedRoute(from: from, to: to, depart: depart), real.durationSeconds > 0,
                  let guess = try? estimate.route(from: from, to: to, depart: depart) else { continue }
            estimated.append(guess.durationSeconds)
            measured.append(real.durationSeconds + truth.tripOverheadSeconds)
        }
        self.init(estimated: estimated, truth: measured)
    }

    /// `estimate`'s durations of measured trips against what they took.
    init(_ trips: [MeasuredTrip], estimate: RoadRouter) {
        var estimated: [Double] = [], measured: [Double] = []
        for trip in trips {
            guard let guess = try? estimate.route(from: trip.from, to: trip.to, depart: trip.depart) else { continue }
            estimated.append(guess.durationSeconds)
            measured.append(trip.durationSeconds)
        }
        self.init(estimated: estimated, truth: measured)
    }
}

/// The figures of one checkpoint of a learning run.
public struct LearningCheckpoint: Sendable, Codable {
    /// Simulated hours since the start.
    public var hours: Double
    /// The service's estimates of random trips leaving now against their true drive times.
    public var randomTrips: TripScore?
    /// The same trips on the built-in profile alone: where the service started.
    public var builtInRandomTrips: TripScore?
    /// The learned weekly speeds (and trip overhead) on the measured trips, when given.
    public var measuredTrips: TripScore?
    public var matchedFixes = 0
    public var unmatchedFixes: [UnmatchedReason: Int] = [:]
    /// (edge, quarter-hour) cells with observations.
    public var learnedCells = 0
    /// The trip overhead learned from the taxis' trips, seconds.
    public var tripOverheadSeconds = 0.0

    init(hours: Double) { self.hours = hours }
}

extension UnmatchedReason: Codable, CodingKeyRepresentable {}

/// A whole learning run's figures.
public struct LearningReport: Sendable, Codable {
    /// How an incident was noticed.
    public struct IncidentResponse: Sendable, Codable {
        public var road: String
        public var edges: Int
        public var factor: Double
        /// Probe trips through the road, which it slows by a quarter or more.
        public var probes = 0
        /// The probes' median ETA error when the incident starts.
        public var errorAtStart: Double?
        /// Minutes after its start until the median ETA error of the probes was within 20 % of their true times.
        public var minutesUntilWithin20Percent: Double?
        /// Minutes after its start until the service's routes left the road in
        /// 80 % of the probes where a detour is at least 10 % faster than staying on it.
        public var minutesUntilAvoided: Double?
        /// Probes with a detour at least 10 % faster than the road during the incident.
        public var probesWithShorterDetour = 0

        init(incident: RoadIncident) {
            road = incident.roadName
            edges = incident.edges.count
            factor = incident.factor
            start = incident.start
            end = incident.end
            edgeSet = Set(incident.edges)
        }

        /// When the incident starts, in simulated time.
        public private(set) var start: Date
        /// When it ends.
        public private(set) var end: Date
        /// Its edges, to tell which probes pass it: working state, not part of the report.
        private var edgeSet: Set<Int> = []

        private enum CodingKeys: String, CodingKey {
            case road, edges, factor, probes, errorAtStart, minutesUntilWithin20Percent, minutesUntilAvoided, probesWithShorterDetour, start, end
        }

        /// Checks the probes at `now`, while the incident is under way.
        mutating func observe(at now: Date, start runStart: Date, probes: [(Coordinate, Coordinate)], trueRouter: RoadRouter, serviceRouter: RoadRouter) {
            guard now >= start, now < end, !probes.isEmpty else { return }
            self.probes = probes.count
            let minutes = now.timeIntervalSince(start) / 60
            if minutesUntilWithin20Percent == nil {
                let score = TripScore(probes, depart: now, truth: trueRouter, estimate: serviceRouter)
                if errorAtStart == nil { errorAtStart = score.medianAbsolutePercentageError }
                if score.medianAbsolutePercentageError <= 0.2 { minutesUntilWithin20Percent = minutes }
            }
            if minutesUntilAvoided == nil {
                var detours = 0, avoided = 0
                let weights = trueRouter.metric(departing: now).edgeWeights
                for (from, to) in probes {
                    guard let truth = try? trueRouter.timedRoute(from: from, to: to, depart: now),
                          !truth.stretches.contains(where: { edgeSet.contains($0.edge) }),
                          let usual = try? trueRouter.timedRoute(from: from, to: to, depart: start.addingTimeInterval(-60)),
                          truth.durationSeconds <= 0.9 * usual.retimed(after: 0, weights: weights).durationSeconds else { continue }
                    detours += 1
                    if let chosen = try? serviceRouter.drivenEdges(from: from, to: to, depart: now),
                       !chosen.contains(where: { edgeSet.contains($0.edge) }) { avoided += 1 }
                }
                probesWithShorterDetour = max(probesWithShorterDetour, detours)
                if detours > 0, Double(avoided) >= 0.8 * Double(detours) { minutesUntilAvoided = minutes }
            }
        }
    }

    public var settings: Settings
    public var checkpoints: [LearningCheckpoint] = []
    public var incidents: [IncidentResponse] = []
    /// The true profile's own score on the measured trips: the best the learner can hope for.
    public var trueProfileOnMeasuredTrips: TripScore?
    /// The built-in profile's score on the measured trips.
    public var builtInOnMeasuredTrips: TripScore?
    /// Fixes matched and learned from per CPU second of the simulation's thread.
    public var matchingFixesPerSecond = 0.0
    /// The median time from learned speeds to their new metric in force, seconds (wall clock).
    public var recustomizationSeconds = 0.0
    /// The median CPU time of one re-customization, of every thread it ran on, seconds.
    public var recustomizationCPUSeconds = 0.0

    /// The settings, as the report shows them.
    public struct Settings: Sendable, Codable {
        public var taxis: Int
        public var gpsNoiseMetres: Double
        public var dropRate: Double
        public var seed: UInt64
    }

    init(settings: LearningSimulationSettings, taxis: Int) {
        self.settings = Settings(taxis: taxis, gpsNoiseMetres: settings.gpsNoiseMetres, dropRate: settings.dropRate, seed: settings.seed)
    }
}
