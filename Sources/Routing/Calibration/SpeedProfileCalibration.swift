import Foundation

/// Fits a city's weekly speed profile to measured trips (SPEC R4).
///
/// The model: a trip leaving in hour `h` takes
/// `overhead + hourMultiplier(h) × Σ edges (freeFlow(e) + signalDelay(e)) × zoneMultiplier(zone(e)) / (classFactor(class(e)) × laneFactor(e))`.
///
/// 1. **Road classes.** Three class groups (fast roads: motorways and trunks;
///    arterials: primary and secondary; local streets: the rest) get relative
///    factors, found by a grid search that re-routes every trip (relative
///    factors change which roads a route takes).
/// 2. **Street factors.** A time factor for streets with at most two lanes per
///    direction (``LaneClass/narrow``), one for streets without a `lanes`
///    tag, and the delay of a minor approach to a traffic signal
///    (``SignalApproach/minor``), each by a grid search that re-routes too.
/// 3. **Zones** (when the graph knows its edges' zones, ``EdgeZones``). One
///    time multiplier per zone the routes cross, shrunk toward 1 by an L2
///    penalty whose weight is chosen by cross-validation on the trips being
///    fitted; then the trips are re-routed on the fitted times and everything
///    refitted (``reroutePasses`` times), so routes follow the zone factors.
///    In between, rounds of coordinate descent revisit the street and class
///    factors with the zone factors in place.
///
/// At every step the hour multipliers (one per weekday/weekend hour, smoothed
/// with the neighbouring hours and shrunk toward the all-day value where
/// trips are few) and the overhead (from a small grid) are refitted
/// (``TripTimeModel``). Everything minimises the RMSLE, the error the
/// dispatch ETAs are judged by. The held-out figure repeats the whole fit on
/// every other trip and routes the others on its profile.
public enum SpeedProfileCalibration {
    /// The groups of road classes that share a relative factor.
    public enum ClassGroup: CaseIterable, Sendable {
        case fast, arterial, local

        /// The group of `roadClass`.
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
        /// The fitted profile (overhead, lane and zone factors included).
        public var profile: SpeedProfile
        /// Trips that could be routed and were used.
        public var routedTrips: Int
        /// Trips dropped: an end too far from a road, or no path.
        public var unroutableTrips: Int
        /// Free-flow estimates (profile factor 1 everywhere, no overhead).
        public var freeFlow: TravelTimeAccuracy
        /// The profile the router used before (the given baseline).
        public var baseline: TravelTimeAccuracy
        /// The fitted profile on all the trips, routed on its own times.
        public var fitted: TravelTimeAccuracy
        /// Fitted on every other trip, the others routed on that profile and scored.
        public var heldOut: TravelTimeAccuracy
        /// The fitted time factor of narrow streets (1: no slower than their class).
        public var narrowTimeFactor: Double
        /// The fitted time factor of streets without a `lanes` tag.
        public var untaggedTimeFactor: Double
        /// The zone penalty cross-validation chose (nil without zones).
        public var zonePenalty: Double?
    }

    /// The grid of relative speed factors tried for arterials and local
    /// streets (fast roads are the reference, 1).
    static let relativeFactors: [Float] = [0.5, 0.7, 0.85, 1.0, 1.2, 1.4, 1.7, 2.0, 2.5, 3.0]
    /// Time factors tried for narrow and for untagged streets (wide streets are the reference, 1).
    static let laneTimeFactors: [Double] = [1.0, 1.2, 1.4, 1.55, 1.7, 1.85, 2.0, 2.4]
    /// Minor-signal delays tried, in free-flow seconds.
    static let minorSignalDelays: [Double] = [0, 5, 10, 15, 20, 30]
    /// Overheads tried, in seconds.
    static let overheads: [Double] = [0, 30, 60, 90, 105, 120, 135, 150, 180, 240, 300]
    /// Zone penalties tried by cross-validation (weight of `Σ log(m)²` against the summed squared log errors).
    static let zonePenalties: [Double] = [0.25, 0.5, 1, 2, 4, 8, 16, 32, 64]
    /// Folds of the cross-validation choosing the zone penalty.
    static let crossValidationFolds = 5
    /// At most this many rounds of coordinate descent over class, lane and zone factors.
    static let jointRounds = 3
    /// Re-route-and-refit passes at the end, each routing on the zone factors just fitted.
    static let reroutePasses = 2

    /// Calibrates on `trips` over `graph` (with its CCH `topology` and, when
    /// built with zones, its ``EdgeZones``), local hours in `timeZone`;
    /// `baseline` is scored for comparison. Trips are routed with the
    /// router's snapping limit and radius, as the fitted profile will be
    /// used. `progress` hears about each step.
    public static func fit(graph: RoadGraph, topology: CCHTopology, zones: EdgeZones? = nil, trips: [MeasuredTrip],
                           timeZone: TimeZone, baseline: SpeedProfile, maxSnapDistanceMetres: Double = 250,
                           snapRadiusMetres: Double = RoadRouter.defaultSnapRadiusMetres,
                           progress: (String) -> Void = { _ in }) -> Result {
        func router(_ profile: SpeedProfile) -> RoadRouter {
            RoadRouter(graph: graph, topology: topology, speeds: ProfiledEdgeSpeeds(graph: graph, profile: profile, zones: zones),
                   timeZone: timeZone, maxSnapDistanceMetres: maxSnapDistanceMetres, snapRadiusMetres: snapRadiusMetres,
                   tripOverheadSeconds: profile.tripOverheadSeconds)
        }
        let freeRouter = router(SpeedProfile())
        let routable = trips.filter { (try? freeRouter.route(from: $0.from, to: $0.to, depart: $0.depart)) != nil }
        progress("\(routable.count) of \(trips.count) trips routable")
        var fitter = Fitter(trips: routable, timeZone: timeZone) { setting in
            TripDrives.route(routable, setting: setting, graph: graph, topology: topology, zones: zones,
                             timeZone: timeZone, maxSnapDistanceMetres: maxSnapDistanceMetres,
                             snapRadiusMetres: snapRadiusMetres)
        }

        let all = Array(routable.indices)
        progress("fitting on all trips")
        let fitted = fitter.fit(using: all, progress: progress)
        let even = all.filter { $0 % 2 == 0 }, odd = all.filter { $0 % 2 == 1 }
        progress("fitting on every other trip for the held-out score")
        let trained = fitter.fit(using: even, progress: progress)

        progress("scoring free flow, the baseline and the fitted profile")
        func score(_ profile: SpeedProfile, on subset: [Int]) -> TravelTimeAccuracy {
            let router = router(profile)
            let estimates = subset.map { index in
                let trip = routable[index]
                return (try? router.route(from: trip.from, to: trip.to, depart: trip.depart).durationSeconds) ?? .nan
            }
            return TravelTimeAccuracy(estimated: estimates, measured: subset.map { routable[$0].durationSeconds })
        }
        let profile = fitted.profile(zoneIDs: zones?.zoneIDs ?? [])
        return Result(
            profile: profile, routedTrips: routable.count, unroutableTrips: trips.count - routable.count,
            freeFlow: score(SpeedProfile(), on: all), baseline: score(baseline, on: all), fitted: score(profile, on: all),
            heldOut: score(trained.profile(zoneIDs: zones?.zoneIDs ?? []), on: odd),
            narrowTimeFactor: fitted.setting.narrowTimeFactor, untaggedTimeFactor: fitted.setting.untaggedTimeFactor,
            zonePenalty: fitted.zonePenalty)
    }

    /// The speed factor (fraction of free-flow speed, as profiles store it)
    /// of a time factor, as ``profileFactor(_:)`` stores it.
    static func speedFactor(timeFactor: Double) -> Float {
        profileFactor(1 / timeFactor)
    }

    /// A speed factor as a profile file stores it: within the profile's
    /// (0, 2] (at least 0.01) and rounded to 3 decimals.
    static func profileFactor(_ value: Double) -> Float {
        Float((min(max(value, 0.01), 2) * 1000).rounded() / 1000)
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
        let terms = weighted.map { (drive: drive[$0.0], target: log1p(measured[$0.0]), weight: $0.1) }
        return exp(goldenSection(low: log(0.5), high: log(20.0)) { logMultiplier in
            let multiplier = exp(logMultiplier)
            var total = terms.reduce(0) { sum, term in
                sum + term.weight * pow(log1p(overhead + term.drive * multiplier) - term.target, 2)
            }
            if let prior { total += prior.weight * pow(logMultiplier - log(prior.value), 2) }
            return total
        })
    }

    /// The minimum of a unimodal `cost` on `low...high` by golden-section search.
    static func goldenSection(low: Double, high: Double, cost: (Double) -> Double) -> Double {
        var (low, high) = (low, high)
        let ratio = (5.0.squareRoot() - 1) / 2
        var a = high - ratio * (high - low), b = low + ratio * (high - low)
        var (costA, costB) = (cost(a), cost(b))
        for _ in 0..<50 {
            if costA < costB {
                (high, b, costB) = (b, a, costA)
                a = high - ratio * (high - low)
                costA = cost(a)
            } else {
                (low, a, costA) = (a, b, costB)
                b = low + ratio * (high - low)
                costB = cost(b)
            }
        }
        return (low + high) / 2
    }

    /// Weekday hours are buckets 0–23, weekend hours 24–47.
    static func bucket(hourOfWeek: Int) -> Int {
        (hourOfWeek / 24 >= 5 ? 24 : 0) + hourOfWeek % 24
    }
}
