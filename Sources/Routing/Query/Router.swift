import Foundation
import GeoKit
import Synchronization

/// The routing facade: owns the graph, its CCH topology and snapper, and one
/// customized metric per hour of the week, built on first use.
///
/// Coordinates are snapped to the nearest road; a route starts from the
/// projected point, paying only the rest of its edge (either way when the
/// road is two-way), and ends likewise. Travel times come from the
/// ``EdgeSpeedSource`` for the departure's hour in ``timeZone``. Safe to call
/// from any thread: metrics are cached behind a lock (customized outside it,
/// so one slow hour doesn't block the others), and each call borrows a
/// query object with its own scratch from a pool.
///
/// Hours whose durations are the same (the source's
/// ``EdgeSpeedSource/durationsKey(hourOfWeek:)``) share one metric, so the
/// dense-city profile needs 9 customizations for the whole week, not 168.
/// At most ``maxCachedMetrics`` are kept; the least recently used goes first.
public final class Router: Sendable {
    /// The road graph routed on.
    public let graph: RoadGraph
    /// Its CCH topology.
    public let topology: CCHTopology
    /// The spatial index coordinates are snapped with.
    public let snapper: Snapper
    /// Where per-hour edge durations come from.
    public let speeds: any EdgeSpeedSource
    /// The city's time zone, for the hour of the week of a departure.
    public let timeZone: TimeZone
    /// Coordinates farther than this from every road are refused, in metres.
    public let maxSnapDistanceMetres: Double
    /// How many customized metrics the cache keeps.
    public let maxCachedMetrics: Int
    /// Seconds added to every drive: pulling out, finding the kerb, the first
    /// and last metres no road speed accounts for (``SpeedProfile/tripOverheadSeconds``).
    public let tripOverheadSeconds: Double
    private let metrics = Mutex(MetricCache())
    private let pool = Mutex<[QueryBox]>([])

    /// Creates a router; builds the topology when none is given (seconds on a large city).
    public init(graph: RoadGraph, topology: CCHTopology? = nil, speeds: (any EdgeSpeedSource)? = nil,
                timeZone: TimeZone, maxSnapDistanceMetres: Double = 250, maxCachedMetrics: Int = 24,
                tripOverheadSeconds: Double = 0) {
        self.maxCachedMetrics = max(maxCachedMetrics, 1)
        self.tripOverheadSeconds = tripOverheadSeconds
        self.graph = graph
        self.topology = topology ?? CCHTopology(graph: graph)
        snapper = Snapper(graph: graph)
        self.speeds = speeds ?? ProfiledEdgeSpeeds(graph: graph)
        self.timeZone = timeZone
        self.maxSnapDistanceMetres = maxSnapDistanceMetres
    }

    /// The metric for `hourOfWeek`, customizing it on first use.
    public func metric(hourOfWeek: Int) -> CCHMetric {
        let key = speeds.durationsKey(hourOfWeek: hourOfWeek)
        if let cached = metrics.withLock({ $0.metric(for: key) }) { return cached }
        let built = CCHMetric(topology: topology, graph: graph, weights: speeds.edgeDurations(hourOfWeek: hourOfWeek))
        return metrics.withLock { $0.insert(built, for: key, limit: maxCachedMetrics) }
    }

    /// Forgets every customized metric, so the next queries customize from the
    /// speed source again; call it when a live source's durations change.
    public func discardMetrics() {
        metrics.withLock { $0 = MetricCache() }
    }

    /// The metric for departures at `date`.
    public func metric(departing date: Date) -> CCHMetric {
        metric(hourOfWeek: SpeedProfile.hourOfWeek(date, in: timeZone))
    }

    /// The fastest route from `source` to `target` leaving at `depart`.
    /// - Throws: ``SnapError`` when either end is too far from a road,
    ///   ``RouteError/noRoute`` when no path exists.
    public func route(from source: Coordinate, to target: Coordinate, depart: Date,
                      includeGeometry: Bool = false) throws -> Route {
        let metric = metric(departing: depart)
        let from = try snapper.snap(source, maxDistanceMetres: maxSnapDistanceMetres)
        let to = try snapper.snap(target, maxDistanceMetres: maxSnapDistanceMetres)
        let direct = directCost(from: from, to: to, metric: metric)
        let found = withQuery { query in
            query.shortestPath(from: sourceSeeds(from, metric), to: targetSeeds(to, metric), metric: metric,
                               unpack: includeGeometry)
        }
        if let direct, direct.durationMs <= found?.durationMs ?? unreachableMs {
            return Route(durationSeconds: Double(direct.durationMs) / 1000 + tripOverheadSeconds, distanceMetres: Double(direct.lengthMetres),
                         geometry: includeGeometry ? [from.point, to.point] : [],
                         sourceSnapMetres: from.distanceMetres, targetSnapMetres: to.distanceMetres)
        }
        guard let found else { throw RouteError.noRoute }
        var geometry: [Coordinate] = []
        if includeGeometry {
            geometry.reserveCapacity(found.edges.count + 3)
            geometry.append(from.point)
            geometry.append(graph.coordinates[Int(found.sourceNode)])
            for edge in found.edges { geometry.append(graph.coordinates[Int(graph.edgeHead[edge])]) }
            geometry.append(to.point)
        }
        return Route(durationSeconds: Double(found.durationMs) / 1000 + tripOverheadSeconds, distanceMetres: Double(found.lengthMetres),
                     geometry: geometry, sourceSnapMetres: from.distanceMetres, targetSnapMetres: to.distanceMetres)
    }

    /// Travel estimates from many places to one (say, every free taxi to a pickup), leaving at `depart`.
    ///
    /// One many-to-one CCH table: cost close to a single query plus a sweep
    /// over the sources' elimination-tree ancestors.
    /// - Returns: one entry per source, `nil` when that source is too far from
    ///   a road or cannot reach the target.
    /// - Throws: ``SnapError`` when the target is too far from a road.
    public func table(from sources: [Coordinate], to target: Coordinate, depart: Date) throws -> [TravelEstimate?] {
        let metric = metric(departing: depart)
        let to = try snapper.snap(target, maxDistanceMetres: maxSnapDistanceMetres)
        let from = sources.map { try? snapper.snap($0, maxDistanceMetres: maxSnapDistanceMetres) }
        let selection = CCHSelection(topology: topology, endpoints: from.map { $0.map { sourceSeeds($0, metric) } ?? [] })
        let cells = withQuery { $0.manyToOne(from: selection, to: targetSeeds(to, metric), metric: metric) }
        return zip(from, cells).map { snap, cell in
            guard let snap else { return nil }
            return estimate(cell, direct: directCost(from: snap, to: to, metric: metric))
        }
    }

    /// Travel estimates from one place to many, leaving at `depart` (one-to-many table).
    /// - Returns: one entry per target, `nil` when it is too far from a road or unreachable.
    /// - Throws: ``SnapError`` when the source is too far from a road.
    public func table(from source: Coordinate, to targets: [Coordinate], depart: Date) throws -> [TravelEstimate?] {
        let metric = metric(departing: depart)
        let from = try snapper.snap(source, maxDistanceMetres: maxSnapDistanceMetres)
        let to = targets.map { try? snapper.snap($0, maxDistanceMetres: maxSnapDistanceMetres) }
        let selection = CCHSelection(topology: topology, endpoints: to.map { $0.map { targetSeeds($0, metric) } ?? [] })
        let cells = withQuery { $0.oneToMany(from: sourceSeeds(from, metric), to: selection, metric: metric) }
        return zip(to, cells).map { snap, cell in
            guard let snap else { return nil }
            return estimate(cell, direct: directCost(from: from, to: snap, metric: metric))
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

/// Customized metrics by durations key, with least-recently-used eviction.
private struct MetricCache: Sendable {
    private var entries: [Int: (metric: CCHMetric, lastUse: UInt64)] = [:]
    private var clock: UInt64 = 0

    mutating func metric(for key: Int) -> CCHMetric? {
        guard let entry = entries[key] else { return nil }
        clock += 1
        entries[key] = (entry.metric, clock)
        return entry.metric
    }

    /// Stores `metric` unless another thread stored one first; returns the one kept.
    mutating func insert(_ metric: CCHMetric, for key: Int, limit: Int) -> CCHMetric {
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
