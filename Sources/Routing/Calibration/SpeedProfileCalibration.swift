import Foundation

/// Fits a city's weekly speed profile to measured trips (SPEC R4).
///
/// The model: a trip leaving in hour `h` takes
/// `overhead + Σ edges freeFlow(e) / (classFactor(class(e)) × hourFactor(h))`.
/// Three class groups (fast roads: motorways and trunks; arterials: primary
/// and secondary; local streets: the rest) get relative factors, found by a
/// grid search that re-routes every trip (relative factors change which
/// roads a route takes); the hour factors, one per weekday/weekend hour,
/// then have a one-dimensional fit each, smoothed with the neighbouring
/// hours and shrunk toward the all-day value where trips are few; the
/// overhead comes from a small grid. Everything minimises the RMSLE, the
/// error the dispatch ETAs are judged by.
public enum SpeedProfileCalibration {
    /// The groups of road classes that share a relative factor.
    public enum ClassGroup: CaseIterable, Sendable {
        case fast, arterial, local

        public init(_ roadClass: RoadClass) {
            switch roadClass {
            case .motorway, .motorwayLink, .trunk, .trunkLink: self = .fast
            case .primary, .primaryLink, .secondary, .secondaryLink: self = .arterial
            default: self = .local
            }
        }
    }

    /// What a calibration found and how good it is.
    public struct Result: Sendable {
        /// The fitted profile (overhead included).
        public var profile: SpeedProfile
        /// Trips that could be routed and were used.
        public var routedTrips: Int
        /// Trips dropped: an end too far from a road, or no path.
        public var unroutableTrips: Int
        /// Free-flow estimates (profile factor 1 everywhere, no overhead).
        public var freeFlow: TravelTimeAccuracy
        /// The profile the router used before (the given baseline).
        public var baseline: TravelTimeAccuracy
        /// The fitted profile on all the trips.
        public var fitted: TravelTimeAccuracy
        /// Fitted on every other trip, scored on the trips it did not see.
        public var heldOut: TravelTimeAccuracy
    }

    /// The grid of relative speed factors tried for arterials and local
    /// streets (fast roads are the reference, 1).
    static let relativeFactors: [Float] = [0.5, 0.7, 0.85, 1.0, 1.2, 1.4, 1.7, 2.0]
    /// Overheads tried, in seconds.
    static let overheads: [Double] = [0, 30, 60, 90, 120, 150, 180, 240, 300]

    /// Calibrates on `trips` over `graph` (with its CCH `topology`), local
    /// hours in `timeZone`; `baseline` is scored for comparison. `progress`
    /// hears about each step.
    public static func fit(graph: RoadGraph, topology: CCHTopology, trips: [MeasuredTrip], timeZone: TimeZone,
                           baseline: SpeedProfile, maxSnapDistanceMetres: Double = 250,
                           progress: (String) -> Void = { _ in }) -> Result {
        let freeRouter = Router(graph: graph, topology: topology, speeds: ProfiledEdgeSpeeds(graph: graph, profile: SpeedProfile()),
                                timeZone: timeZone, maxSnapDistanceMetres: maxSnapDistanceMetres)
        let routable = trips.filter { (try? freeRouter.route(from: $0.from, to: $0.to, depart: $0.depart)) != nil }
        progress("\(routable.count) of \(trips.count) trips routable")
        let measured = routable.map(\.durationSeconds)
        let hours = routable.map { SpeedProfile.hourOfWeek($0.depart, in: timeZone) }

        progress("searching relative road-class speeds (\(relativeFactors.count * relativeFactors.count) route sets)")
        var candidates: [(factors: [ClassGroup: Float], drive: [Double])] = []
        for arterial in relativeFactors {
            for local in relativeFactors {
                let factors: [ClassGroup: Float] = [.fast: 1, .arterial: arterial, .local: local]
                let router = Router(graph: graph, topology: topology,
                                    speeds: ProfiledEdgeSpeeds(graph: graph, profile: classProfile(factors)),
                                    timeZone: timeZone, maxSnapDistanceMetres: maxSnapDistanceMetres)
                let drive = routable.map { (try? router.route(from: $0.from, to: $0.to, depart: $0.depart).durationSeconds) ?? .nan }
                candidates.append((factors, drive))
            }
        }

        let all = Array(routable.indices)
        let best = bestModel(candidates: candidates, measured: measured, hours: hours, using: all)
        let profile = makeProfile(classFactors: best.factors, hourMultipliers: best.hourMultipliers, overhead: best.overhead)

        let even = all.filter { $0 % 2 == 0 }, odd = all.filter { $0 % 2 == 1 }
        let trained = bestModel(candidates: candidates, measured: measured, hours: hours, using: even)
        let heldOutEstimates = odd.map { trained.estimate(trip: $0, hour: hours[$0]) }

        progress("scoring free flow, the baseline and the fitted profile")
        func score(_ profile: SpeedProfile) -> TravelTimeAccuracy {
            let router = Router(graph: graph, topology: topology, speeds: ProfiledEdgeSpeeds(graph: graph, profile: profile),
                                timeZone: timeZone, maxSnapDistanceMetres: maxSnapDistanceMetres,
                                tripOverheadSeconds: profile.tripOverheadSeconds)
            let estimates = routable.map { (try? router.route(from: $0.from, to: $0.to, depart: $0.depart).durationSeconds) ?? .nan }
            return TravelTimeAccuracy(estimated: estimates, measured: measured)
        }
        return Result(
            profile: profile, routedTrips: routable.count, unroutableTrips: trips.count - routable.count,
            freeFlow: score(SpeedProfile()), baseline: score(baseline), fitted: score(profile),
            heldOut: TravelTimeAccuracy(estimated: heldOutEstimates, measured: odd.map { measured[$0] }))
    }

    /// A fitted model over one set of route durations.
    struct Model {
        var factors: [ClassGroup: Float]
        var drive: [Double]
        var overhead: Double
        /// Time multiplier per weekday/weekend hour bucket (48).
        var hourMultipliers: [Double]
        var error: Double

        func estimate(trip: Int, hour: Int) -> Double {
            overhead + drive[trip] * hourMultipliers[bucket(hourOfWeek: hour)]
        }
    }

    /// The candidate route set and overhead with the lowest RMSLE on `trips`.
    static func bestModel(candidates: [(factors: [ClassGroup: Float], drive: [Double])], measured: [Double], hours: [Int],
                          using trips: [Int]) -> Model {
        var best: Model?
        for candidate in candidates {
            let usable = trips.filter { candidate.drive[$0].isFinite && candidate.drive[$0] > 0 }
            for overhead in overheads {
                let multipliers = fitHourMultipliers(drive: candidate.drive, measured: measured, hours: hours,
                                                     trips: usable, overhead: overhead)
                var model = Model(factors: candidate.factors, drive: candidate.drive, overhead: overhead,
                                  hourMultipliers: multipliers, error: 0)
                model.error = usable.reduce(0) { $0 + pow(log1p(model.estimate(trip: $1, hour: hours[$1])) - log1p(measured[$1]), 2) }
                    / Double(max(usable.count, 1))
                if model.error < best?.error ?? .infinity { best = model }
            }
        }
        return best!
    }

    /// One time multiplier per hour bucket: the value minimising the squared
    /// log error of the bucket's trips (neighbouring hours weigh half),
    /// shrunk toward the all-day multiplier with the weight of two trips.
    static func fitHourMultipliers(drive: [Double], measured: [Double], hours: [Int], trips: [Int], overhead: Double) -> [Double] {
        let everything = trips.map { ($0, 1.0) }
        let allDay = minimise(drive: drive, measured: measured, weighted: everything, overhead: overhead, prior: nil)
        var byBucket = [[Int]](repeating: [], count: 48)
        for trip in trips { byBucket[bucket(hourOfWeek: hours[trip])].append(trip) }
        return (0..<48).map { bucket in
            let weekend = bucket / 24, hour = bucket % 24
            var weighted = byBucket[bucket].map { ($0, 1.0) }
            for neighbour in [(hour + 23) % 24, (hour + 1) % 24] {
                weighted += byBucket[weekend * 24 + neighbour].map { ($0, 0.5) }
            }
            return minimise(drive: drive, measured: measured, weighted: weighted, overhead: overhead, prior: (allDay, 2))
        }
    }

    /// Golden-section search of the multiplier (0.5–20) on a log scale.
    static func minimise(drive: [Double], measured: [Double], weighted: [(Int, Double)], overhead: Double,
                         prior: (value: Double, weight: Double)?) -> Double {
        func cost(_ logMultiplier: Double) -> Double {
            let multiplier = exp(logMultiplier)
            var total = weighted.reduce(0) { sum, entry in
                sum + entry.1 * pow(log1p(overhead + drive[entry.0] * multiplier) - log1p(measured[entry.0]), 2)
            }
            if let prior { total += prior.weight * pow(logMultiplier - log(prior.value), 2) }
            return total
        }
        var (low, high) = (log(0.5), log(20.0))
        let ratio = (5.0.squareRoot() - 1) / 2
        for _ in 0..<60 {
            let a = high - ratio * (high - low), b = low + ratio * (high - low)
            if cost(a) < cost(b) { high = b } else { low = a }
        }
        return exp((low + high) / 2)
    }

    /// Weekday hours are buckets 0–23, weekend hours 24–47.
    static func bucket(hourOfWeek: Int) -> Int {
        (hourOfWeek / 24 >= 5 ? 24 : 0) + hourOfWeek % 24
    }

    static func classProfile(_ factors: [ClassGroup: Float]) -> SpeedProfile {
        var profile = SpeedProfile()
        for roadClass in RoadClass.allCases {
            for hour in 0..<SpeedProfile.hoursPerWeek { profile.setFactor(factors[ClassGroup(roadClass)]!, for: roadClass, hourOfWeek: hour) }
        }
        return profile
    }

    /// factor(class, hour) = class factor ÷ hour multiplier, kept within the profile's (0, 2].
    static func makeProfile(classFactors: [ClassGroup: Float], hourMultipliers: [Double], overhead: Double) -> SpeedProfile {
        var profile = SpeedProfile()
        for roadClass in RoadClass.allCases {
            for hour in 0..<SpeedProfile.hoursPerWeek {
                let value = Double(classFactors[ClassGroup(roadClass)]!) / hourMultipliers[bucket(hourOfWeek: hour)]
                let rounded = Float((min(max(value, 0.01), 2) * 1000).rounded() / 1000)
                profile.setFactor(rounded, for: roadClass, hourOfWeek: hour)
            }
        }
        profile.tripOverheadSeconds = overhead
        return profile
    }
}
