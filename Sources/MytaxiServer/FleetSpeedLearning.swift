import FixRecords
import Foundation
import GeoKit
import Logging
import Metrics
import Routing
import Storage
import Synchronization

/// The service's side of learning speeds from the fleet (SPEC R4): every
/// committed fix goes into an inbox (the ingest path only appends); a
/// background step (``SpeedLearningService``) matches them to the roads
/// with a ``SpeedLearner`` and, every 30 seconds, puts the learned speeds in
/// force in the router, which customizes the current quarter-hour's metric
/// before the swap so no query waits. The weekly table is saved every few
/// minutes and at shutdown, and read back at start.
final class FleetSpeedLearning: Sendable {
    /// Fixes waiting to be matched, in commit order.
    private let inbox = Mutex<[(taxi: String, coordinate: Coordinate, time: Date)]>([])
    /// The time of the newest fix received, kept apart from the learner so
    /// that reading it never waits for a batch being matched.
    private let newestFix = Mutex<Date?>(nil)
    private let learner: Mutex<SpeedLearner>
    /// What the speeds in force were made from: nothing new means nothing to publish.
    private let published = Mutex<PublishedFrom?>(nil)
    private let router: RoadRouter
    private let store: any LearnedSpeedStore
    private let fingerprint: String
    private let logger: Logger
    private let metrics: Metrics
    /// At most this many fixes wait; beyond, the oldest are dropped (counted as `gap`).
    static let inboxLimit = 200_000

    /// Learning on `router`'s roads over its own profile, from what `store` kept.
    init(router: RoadRouter, store: any LearnedSpeedStore, metricsFactory: any MetricsFactory, logger: Logger) async {
        self.router = router
        self.store = store
        self.logger = logger
        metrics = Metrics(factory: metricsFactory)
        fingerprint = LearnedSpeedTable.fingerprint(of: router.graph)
        let base = router.speeds as? ProfiledEdgeSpeeds ?? ProfiledEdgeSpeeds(graph: router.graph)
        var table = LearnedSpeedTable()
        do {
            if let stored = try await store.load() {
                if stored.graphFingerprint == fingerprint {
                    table = try LearnedSpeedTable(serialized: stored.cells, edgeCount: router.graph.edgeCount)
                    logger.info("learned speeds: \(table.cellCount) edge-quarter-hours restored, saved \(FixTime.iso8601(stored.savedAt))")
                } else {
                    logger.warning("learned speeds: the stored ones were learned on another graph (\(stored.graphFingerprint), this one is \(fingerprint)); learning starts again")
                }
            }
        } catch {
            logger.warning("learned speeds: the stored ones cannot be read (\(error)); learning starts again")
        }
        learner = Mutex(SpeedLearner(router: router, base: base, table: table))
    }

    /// Hands committed fixes to the learner (called on the commit path: it only appends).
    func receive(_ fixes: some Sequence<AcceptedFix>) {
        let newest = inbox.withLock { inbox in
            var newest: Date?
            for fix in fixes {
                inbox.append((fix.taxiId.text, fix.coordinate, fix.time))
                newest = max(newest ?? fix.time, fix.time)
            }
            if inbox.count > Self.inboxLimit {
                metrics.dropped.increment(by: Int64(inbox.count - Self.inboxLimit))
                inbox.removeFirst(inbox.count - Self.inboxLimit)
            }
            return newest
        }
        if let newest { newestFix.withLock { $0 = max($0 ?? newest, newest) } }
    }

    /// Matches the waiting fixes; returns how many.
    @discardableResult
    func learnWaiting() -> Int {
        let waiting = inbox.withLock { inbox in
            defer { inbox.removeAll(keepingCapacity: true) }
            return inbox
        }
        guard !waiting.isEmpty else { return 0 }
        learner.withLock { learner in
            for fix in waiting {
                switch learner.observe(taxi: fix.taxi, at: fix.coordinate, time: fix.time) {
                case .matched: metrics.matched.increment()
                case .unmatched(let reason): metrics.unmatched[reason]?.increment()
                }
            }
        }
        return waiting.count
    }

    /// The time of the newest fix received, never later than `now`: the
    /// moment the fleet's live speeds are of (behind the clock when the
    /// fleet is a replay or a simulation, or fell silent).
    func fleetTime(now: Date) -> Date {
        min(newestFix.withLock { $0 } ?? now, now)
    }

    /// Puts the speeds learned until `now` in force in the router; the
    /// metrics of now and of the fleet's time are customized before the swap.
    /// Skipped when no fix came since the last time and `now` and the fleet's
    /// time are in the same quarter-hours: the router already has those
    /// speeds, and customizing costs a core for a moment.
    /// - Returns: whether new speeds were put in force.
    @discardableResult
    func publish(now: Date) -> Bool {
        let fleetNow = fleetTime(now: now)
        let from = PublishedFrom(
            matchedFixes: learner.withLock { $0.matchedFixes }, newestFix: newestFix.withLock { $0 },
            slot: WeekSlot.index(of: now, in: router.timeZone), fleetSlot: WeekSlot.index(of: fleetNow, in: router.timeZone))
        guard published.withLock({ $0 }) != from else { return false }
        published.withLock { $0 = from }
        let (speeds, cells) = learner.withLock { ($0.speeds(now: fleetNow), $0.table.cellCount) }
        let seconds = router.replaceSpeeds(with: speeds, preparing: [now, fleetNow])
        metrics.recustomization.record(seconds)
        metrics.cells.record(cells)
        metrics.currentSlotEdges.record(speeds.table.edgesWithData(inSlot: WeekSlot.index(of: fleetNow, in: router.timeZone)))
        metrics.liveEdges.record(speeds.live?.sums.count ?? 0)
        metrics.liveAge.record(max(now.timeIntervalSince(fleetNow), 0))
        return true
    }

    /// Saves the weekly table, stamped `now`.
    func save(now: Date) async {
        let cells = learner.withLock { Data($0.table.serialized()) }
        do {
            try await store.save(StoredLearnedSpeeds(graphFingerprint: fingerprint, savedAt: now, cells: cells))
        } catch {
            logger.error("learned speeds: saving failed (\(error)); the next save tries again")
        }
    }

    /// The inputs of a publication: the fixes matched, the newest fix (which
    /// the live layer is anchored to), and the quarter-hours of now and of
    /// the fleet's time (which weekly speeds are in force).
    private struct PublishedFrom: Equatable {
        var matchedFixes: Int
        var newestFix: Date?
        var slot: Int
        var fleetSlot: Int
    }

    /// The learned speeds' metrics in `/metrics`.
    private struct Metrics: Sendable {
        let matched: Counter
        let unmatched: [UnmatchedReason: Counter]
        let dropped: Counter
        let recustomization: Gauge
        let cells: Gauge
        let currentSlotEdges: Gauge
        let liveEdges: Gauge
        let liveAge: Gauge

        init(factory: any MetricsFactory) {
            matched = Counter(label: "mytaxi_speed_fixes_matched_total", factory: factory)
            unmatched = Dictionary(uniqueKeysWithValues: UnmatchedReason.allCases.map { reason in
                (reason, Counter(label: "mytaxi_speed_fixes_unmatched_total", dimensions: [("reason", reason.rawValue)], factory: factory))
            })
            dropped = Counter(label: "mytaxi_speed_fixes_dropped_total", factory: factory)
            recustomization = Gauge(label: "mytaxi_speed_recustomization_seconds", factory: factory)
            cells = Gauge(label: "mytaxi_speed_learned_cells", factory: factory)
            currentSlotEdges = Gauge(label: "mytaxi_speed_edges_with_data_current_slot", factory: factory)
            liveEdges = Gauge(label: "mytaxi_speed_live_edges", factory: factory)
            liveAge = Gauge(label: "mytaxi_speed_live_age_seconds", factory: factory)
        }
    }
}
