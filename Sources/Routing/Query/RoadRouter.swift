import Foundation
import GeoKit
import Synchronization

/// The routing facade: owns the graph, its CCH topology and snapper, and one
/// customized metric per hour of the week, built on first use.
///
/// Coordinates are snapped to the nearest road and to every other road
/// within ``snapRadiusMetres``; a route starts from the projected point on
/// whichever of them gives the fastest path, paying only the rest of its edge
/// (either way when the road is two-way), and ends likewise. Travel times come from the
/// ``EdgeSpeedSource`` for the departure's hour in ``timeZone``. Safe to call
/// from any thread: metrics are cached behind a lock (customized outside it,
/// so one slow hour doesn't block the others), and each call borrows a
/// query object with its own scratch from a pool.
///
/// Departures whose durations are the same (the source's
/// ``EdgeSpeedSource/durationsKey(departing:timeZone:)``) share one metric,
/// so the dense-city profile needs 9 customizations for the whole week, not
/// 168. At most ``maxCachedMetrics`` are kept; the least recently used goes first.
///
/// The speed source can be replaced while queries run
/// (``replaceSpeeds(with:preparing:)``, how speeds learned from the fleet
/// come in): the metrics of the new source that matter now are customized
/// before the swap, so no query waits for them, and a query under way
/// finishes on the metric it started with.
public final class RoadRouter: Sendable {
    /// The road graph routed on.
    public let graph: RoadGraph
    /// Its CCH topology.
    public let topology: CCHTopology
    /// The spatial index coordinates are snapped with.
    public let snapper: Snapper
    /// Where per-hour edge durations come from now.
    public var speeds: any EdgeSpeedSource { speedState.withLock { $0.source } }
    /// The city's time zone, for the hour of the week of a departure.
    public let timeZone: TimeZone
    /// The street name of each edge, when the graph file stores them: what
    /// names a road to people (an incident, a map label).
    public let edgeNames: EdgeNames?
    /// Coordinates farther than this from every road are refused, in metres.
    public let maxSnapDistanceMetres: Double
    /// Roads this close to a coordinate are all candidates for its end of a
    /// route, besides the nearest, in metres; 0 snaps to the nearest road only.
    public let snapRadiusMetres: Double
    /// How many customized metrics the cache keeps.
    public let maxCachedMetrics: Int
    /// Seconds added to every drive: pulling out, finding the kerb, the first
    /// and last metres no road speed accounts for (``SpeedProfile/tripOverheadSeconds``).
    public var tripOverheadSeconds: Double { speedState.withLock { $0.tripOverheadSeconds } }
    /// The default ``snapRadiusMetres``. GPS fixes in Manhattan's street
    /// canyons are often 10-30 m off, so the nearest road is often the wrong
    /// one (a corner pickup lands on a one-way street heading away, and the
    /// route goes round the block). On the NYC calibration trips 15 m gave
    /// the lowest error of 10, 15, 20 and 30 m (README, travel-time accuracy).
    public static let defaultSnapRadiusMetres = 15.0
    /// At most this many candidates per coordinate, nearest first: enough for
    /// a corner of four two-way streets, and it bounds the search's seeds.
    public static let maxSnapCandidates = 8
    private let metrics = Mutex(MetricCache())
    /// The speed source, the trip overhead that goes with it, and how many
    /// times they were replaced (metrics are cached per generation).
    private let speedState: Mutex<SpeedState>
    private let pool = Mutex<[QueryBox]>([])

    /// Creates a router; builds the topology when none is given (seconds on a large city).
    public init(graph: RoadGraph, topology: CCHTopology? = nil, speeds: (any EdgeSpeedSource)? = nil,
                timeZone: TimeZone, maxSnapDistanceMetres: Double = 250,
                snapRadiusMetres: Double = RoadRouter.defaultSnapRadiusMetres, maxCachedMetrics: Int = 24,
                tripOverheadSeconds: Double = 0, edgeNames: EdgeNames? = nil) {
        self.maxCachedMetrics = max(maxCachedMetrics, 1)
        self.graph = graph
        self.topology = topology ?? CCHTopology(graph: graph)
        snapper = Snapper(graph: graph)
        speedState = Mutex(SpeedState(source: speeds ?? ProfiledEdgeSpeeds(graph: graph),
                                      tripOverheadSeconds: tripOverheadSeconds, generation: 0))
        self.timeZone = timeZone
        self.edgeNames = edgeNames
        self.maxSnapDistanceMetres = maxSnapDistanceMetres
        self.snapRadiusMetres = max(snapRadiusMetres, 0)
    }

    /// The metric for departures at the start of `hourOfWeek`, customizing it on first use.
    public func metric(hourOfWeek: Int) -> CCHMetric {
        metric(departing: SpeedProfile.date(startingHourOfWeek: hourOfWeek, in: timeZone))
    }

    /// The metric for departures at `date`, customizing it on first use.
    public func metric(departing date: Date) -> CCHMetric {
        let state = speedState.withLock { $0 }
        let key = MetricKey(generation: state.generation, durations: state.source.durationsKey(departing: date, timeZone: timeZone))
        if let cached = metrics.withLock({ $0.metric(for: key) }) { return cached }
        let built = CCHMetric(topology: topology, graph: graph,
                              weights: state.source.edgeDurations(departing: date, timeZone: timeZone))
        return metrics.withLock { $0.insert(built, for: key, limit: maxCachedMetrics) }
    }

    /// Where the speeds of a departure at `date` come from: the profile,
    /// speeds learned over weeks, or the live speeds of the last minutes.
    public func speedProvenance(departing date: Date) -> SpeedProvenance {
        speedState.withLock { $0.source }.provenance(departing: date, timeZone: timeZone)
    }

    /// Puts `source` in force (with `tripOverheadSeconds`, unchanged when
    /// nil): the metrics of departures at `dates` (say, now) are customized
    /// first, outside any lock, and go into the cache with the swap, so the
    /// queries that follow find them ready; the old source's metrics are dropped.
    /// - Returns: how long the customizations took, seconds.
    @discardableResult
    public func replaceSpeeds(with source: any EdgeSpeedSource, tripOverheadSeconds: Double? = nil,
                              preparing dates: [Date] = []) -> Double {
        let started = ContinuousClock.now
        var prepared: [Int: CCHMetric] = [:]
        for date in dates {
            let key = source.durationsKey(departing: date, timeZone: timeZone)
            if prepared[key] == nil {
                prepared[key] = CCHMetric(topology: topology, graph: graph, weights: source.edgeDurations(departing: date, timeZone: timeZone))
            }
        }
        let elapsed = started.duration(to: .now)
        let generation = speedState.withLock { state in
            state.generation += 1
            state.source = source
            if let tripOverheadSeconds { state.tripOverheadSeconds = tripOverheadSeconds }
            return state.generation
        }
        metrics.withLock { cache in
            cache = MetricCache()
            for (durations, metric) in prepared {
                _ = cache.insert(metric, for: MetricKey(generation: generation, durations: durations), limit: maxCachedMetrics)
            }
        }
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// Forgets every customized metric, so the next queries customize from the
    /// speed source again; call it when a live source's durations change.
    public func discardMetrics() {
        metrics.withLock { $0 = MetricCache() }
    }

    /// The fastest route from `source` to `target` leaving at `depart`, from
    /// and to whichever snap candidates make it fastest; the snap distances
    /// and the geometry's ends are those of the candidates used.
    /// - Throws: ``SnapError`` when either end is too far from a road,
    ///   ``RouteError/noRoute`` when no path exists.
    public func route(from source: Coordinate, to target: Coordinate, depart: Date,
                      includeGeometry: Bool = false) throws -> Route {
        let (from, to, path) = try fastestPath(from: source, to: target, depart: depart, unpack: includeGeometry)
        switch path {
        case .direct(let direct):
            let start = from.candidates[direct.sourceCandidate], end = to.candidates[direct.targetCandidate]
            return Route(durationSeconds: Double(direct.durationMs) / 1000 + tripOverheadSeconds, distanceMetres: Double(direct.lengthMetres),
                         geometry: includeGeometry ? [start.point, end.point] : [],
                         sourceSnapMetres: start.distanceMetres, targetSnapMetres: end.distanceMetres)
        case .searched(let found, let first, let last):
            let start = from.candidates[first.candidate], end = to.candidates[last.candidate]
            var geometry: [Coordinate] = []
            if includeGeometry {
                geometry.reserveCapacity(found.edges.count + 3)
                geometry.append(start.point)
                geometry.append(graph.coordinates[Int(found.sourceNode)])
                for edge in found.edges { geometry.append(graph.coordinates[Int(graph.edgeHead[edge])]) }
                geometry.append(end.point)
            }
            return Route(durationSeconds: Double(found.durationMs) / 1000 + tripOverheadSeconds, distanceMetres: Double(found.lengthMetres),
                         geometry: geometry, sourceSnapMetres: start.distanceMetres, targetSnapMetres: end.distanceMetres)
        }
    }

    /// Travel estimates from many places to one (say, every free taxi to a pickup), leaving at `depart`.
    ///
    /// One many-to-one CCH table: cost close to a single query plus a sweep
    /// over the sources' elimination-tree ancestors.
    /// - Returns: one entry per source, `nil` when that source is too far from
    ///   a road or cannot reach the target.
    /// - Throws: ``SnapError`` when the target is too far from a road.
    public func table(from sources: [Coordinate], to target: Coordinate, depart: Date) throws -> [TravelEstimate?] {
        try table(fromSnapped: snapIfNear(sources), to: target, depart: depart)
    }

    /// Travel estimates from one place to many, leaving at `depart` (one-to-many table).
    /// - Returns: one entry per target, `nil` when it is too far from a road or unreachable.
    /// - Throws: ``SnapError`` when the source is too far from a road.
    public func table(from source: Coordinate, to targets: [Coordinate], depart: Date) throws -> [TravelEstimate?] {
        let metric = metric(departing: depart)
        let from = try sourceEndpoint(source, metric)
        let to = targets.map { try? targetEndpoint($0, metric) }
        let selection = CCHSelection(topology: topology, endpoints: to.map { $0?.seeds ?? [] })
        let cells = withQuery { $0.oneToMany(from: from.seeds, to: selection, metric: metric) }
        return zip(to, cells).map { endpoint, cell in
            guard let endpoint else { return nil }
            return estimate(cell, direct: directDrive(from: from.candidates, to: endpoint.candidates, metric: metric))
        }
    }

    /// Whether a taxi at `taxi`, called at `depart`, reaches `pickup` by `deadline`:
    /// it sets off after `expectedWait` seconds and drives at the speeds of that moment.
    /// An unreachable pickup is reported as not reachable with an infinite negative margin.
    /// - Throws: ``SnapError`` when either end is too far from a road.
    public func reachability(from taxi: Coordinate, to pickup: Coordinate, depart: Date, deadline: Date,
                             expectedWait: TimeInterval) throws -> Reachability {
        let setOff = depart.addingTimeInterval(expectedWait)
        let drive: Double
        do {
            drive = try route(from: taxi, to: pickup, depart: setOff).durationSeconds
        } catch RouteError.noRoute {
            return Reachability(reachable: false, arrival: .distantFuture, marginSeconds: -.infinity,
                                driveSeconds: .infinity)
        }
        let arrival = setOff.addingTimeInterval(drive)
        let margin = deadline.timeIntervalSince(arrival)
        return Reachability(reachable: margin >= 0, arrival: arrival, marginSeconds: margin, driveSeconds: drive)
    }

    // MARK: Query pool

    /// Runs `body` with a query object borrowed from the pool (or a new one).
    func withQuery<Result>(_ body: (CCHQuery) throws -> Result) rethrows -> Result {
        let box = pool.withLock { $0.popLast() } ?? QueryBox(CCHQuery(topology: topology))
        defer { pool.withLock { $0.append(box) } }
        return try body(box.query)
    }
}

/// The router's speed source and what goes with it.
private struct SpeedState: Sendable {
    var source: any EdgeSpeedSource
    var tripOverheadSeconds: Double
    var generation: Int
}

/// Which customized metric: the generation of the speed source, and the source's durations key.
private struct MetricKey: Hashable, Sendable {
    var generation: Int
    var durations: Int
}

/// Customized metrics by key, with least-recently-used eviction.
private struct MetricCache: Sendable {
    private var entries: [MetricKey: (metric: CCHMetric, lastUse: UInt64)] = [:]
    private var clock: UInt64 = 0

    mutating func metric(for key: MetricKey) -> CCHMetric? {
        guard let entry = entries[key] else { return nil }
        clock += 1
        entries[key] = (entry.metric, clock)
        return entry.metric
    }

    /// Stores `metric` unless another thread stored one first; returns the one kept.
    mutating func insert(_ metric: CCHMetric, for key: MetricKey, limit: Int) -> CCHMetric {
        if let raced = self.metric(for: key) { return raced }
        if entries.count >= limit, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
            entries[oldest] = nil
        }
        clock += 1
        entries[key] = (metric, clock)
        return metric
    }
}

/// A pooled query object. Only one caller holds a box at a time (it is out
/// of the pool while in use), which is what makes the unchecked conformance sound.
private final class QueryBox: @unchecked Sendable {
    let query: CCHQuery
    init(_ query: CCHQuery) { self.query = query }
}
