import Foundation
import GeoKit

/// Learns travel times from the fleet's own fixes: each fix is matched to
/// the roads against the taxi's previous one (``FleetMatcher``), the time
/// of the matched drive is shared out along its edges in proportion to
/// their free-flow times, and goes into the weekly table (``LearnedSpeedTable``,
/// by quarter-hour of the week) and the live window of the last minutes
/// (``LiveSpeedWindow``). ``speeds(now:)`` turns both into an
/// ``EdgeSpeedSource`` the router can be given.
///
/// Not thread-safe: the service runs one learner on one task.
public final class SpeedLearner {
    /// The profile learned speeds start from, and fall back to.
    public let base: ProfiledEdgeSpeeds
    /// The city's time zone, which decides a drive's slot of the week.
    public let timeZone: TimeZone
    /// The weekly observations so far.
    public private(set) var table: LearnedSpeedTable
    /// The observations of the last minutes.
    public private(set) var live = LiveSpeedWindow()
    /// Fixes matched into drives so far.
    public private(set) var matchedFixes = 0
    /// Fixes that taught nothing, by reason.
    public private(set) var unmatchedFixes: [UnmatchedReason: Int] = [:]
    /// The time of the newest fix observed: the fleet's now, which the live
    /// layer is anchored to (a replayed or simulated fleet runs behind the clock).
    public private(set) var newestFixTime: Date?
    private let matcher: FleetMatcher
    /// The latest trips (a ride, or a simulated taxi's drive from kerb to kerb), for the trip overhead.
    private var trips: [(from: Coordinate, to: Coordinate, depart: Date, seconds: Double)] = []
    /// Trips kept for the overhead estimate.
    static let keptTrips = 200
    private let groups: EdgeGroups
    private let roads: RoadChains
    /// Drives shorter than this at free flow, ms, are too short to time.
    static let shortestDriveMs = 2_000.0

    /// A learner on `router`'s roads over `base` (the router's own profile
    /// speeds), starting from `table` (what was learned before a restart).
    public init(router: RoadRouter, base: ProfiledEdgeSpeeds, table: LearnedSpeedTable = LearnedSpeedTable(),
                settings: MapMatchSettings = MapMatchSettings()) {
        self.base = base
        self.table = table
        timeZone = router.timeZone
        matcher = FleetMatcher(router: router, settings: settings)
        groups = EdgeGroups(graph: router.graph, zones: base.zones)
        roads = RoadChains(graph: router.graph, edgeTail: router.snapper.edgeTail)
    }

    /// Matches one fix of `taxi` and learns from the drive since its
    /// previous one, if any; `mayBeWaiting` as ``FleetMatcher/match(taxi:at:time:mayBeWaiting:)``.
    @discardableResult
    public func observe(taxi: String, at coordinate: Coordinate, time: Date, mayBeWaiting: Bool = true) -> MatchOutcome {
        newestFixTime = max(newestFixTime ?? time, time)
        let outcome = matcher.match(taxi: taxi, at: coordinate, time: time, mayBeWaiting: mayBeWaiting)
        switch outcome {
        case .matched(let leg):
            let freeFlowMs = leg.edges.reduce(0.0) { $0 + Double(base.freeFlowMs[$1.edge]) * $1.share }
            guard freeFlowMs >= Self.shortestDriveMs else {
                unmatchedFixes[.standing, default: 0] += 1
                return .unmatched(.standing)
            }
            matchedFixes += 1
            learn(leg, freeFlowSeconds: freeFlowMs / 1000)
        case .unmatched(let reason):
            unmatchedFixes[reason, default: 0] += 1
        }
        return outcome
    }

    /// Puts the drive's time ratio on each of its edges, in the slot of its middle.
    private func learn(_ leg: MatchedLeg, freeFlowSeconds: Double) {
        let ratio = min(max(leg.seconds / freeFlowSeconds, LearnedEdgeSpeeds.ratioRange.low), LearnedEdgeSpeeds.ratioRange.high)
        let logRatio = log(ratio)
        let middle = leg.departure.addingTimeInterval(leg.seconds / 2)
        let slot = WeekSlot.index(of: middle, in: timeZone)
        for driven in leg.edges {
            table.add(edge: driven.edge, slot: slot, weight: driven.share, logRatio: logRatio)
            live.add(edge: driven.edge, weight: driven.share, logRatio: logRatio, at: middle)
        }
    }

    /// Notes a whole trip from kerb to kerb (a ride from pickup to drop-off):
    /// what it took beyond the drive at the learned speeds is the trip
    /// overhead, pulling out and finding the kerb, which fixes 30 s apart
    /// cannot see.
    public func observeTrip(from: Coordinate, to: Coordinate, depart: Date, seconds: Double) {
        guard seconds > 0, seconds.isFinite else { return }
        trips.append((from, to, depart, seconds))
        if trips.count > Self.keptTrips { trips.removeFirst(trips.count - Self.keptTrips) }
    }

    /// The trip overhead the latest trips show on `router`: the median of
    /// each trip's time minus its drive at the router's speeds (the router's
    /// own overhead taken out), within 0–1800 s; the base profile's while
    /// fewer than 20 trips are known.
    public func tripOverheadSeconds(using router: RoadRouter) -> Double {
        guard trips.count >= 20 else { return base.profile.tripOverheadSeconds }
        let current = router.tripOverheadSeconds
        let residuals = trips.compactMap { trip -> Double? in
            guard let route = try? router.route(from: trip.from, to: trip.to, depart: trip.depart) else { return nil }
            return trip.seconds - (route.durationSeconds - current)
        }.sorted()
        guard !residuals.isEmpty else { return base.profile.tripOverheadSeconds }
        return min(max(residuals[residuals.count / 2], 0), 1800)
    }

    /// The weekly speeds learned so far, without the live layer: what is
    /// stored, exported, and scored on trips of any date.
    public func weeklySpeeds() -> LearnedEdgeSpeeds {
        LearnedEdgeSpeeds(base: base, table: table, live: nil, groups: groups)
    }

    /// The learned speeds as of `now`: the weekly table, and the live window
    /// of the minutes before `now`. Tracks silent for an hour are dropped.
    public func speeds(now: Date) -> LearnedEdgeSpeeds {
        live.prune(now: now)
        matcher.forgetTracks(before: now.addingTimeInterval(-3600))
        return LearnedEdgeSpeeds(base: base, table: table, live: (live.sums(now: now), now), groups: groups, roads: roads)
    }
}
