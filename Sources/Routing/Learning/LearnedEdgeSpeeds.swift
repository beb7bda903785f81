import Foundation

/// Edge durations learned from the fleet over a weekly profile: what the
/// router customizes from once taxis have driven (``SpeedLearner``).
///
/// For a departure in a quarter-hour slot of the week, each edge's log time
/// ratio (log of time ÷ free-flow time) is estimated in two levels, each
/// shrunk toward the one above it so that little data moves it little:
/// 1. its group (same road class, lane class and area zone), pooled over
///    the same time of day (± a slot) on every weekday, or every weekend
///    day: the group's mean deviation from the profile, shrunk toward 0
///    with ``groupPrior`` edges' worth of weight;
/// 2. the edge itself in that slot (± a slot, at half weight), shrunk
///    toward profile + group deviation with ``edgePrior``.
///
/// One taxi stuck behind a bus thus barely slows a street, while a street
/// many taxis found slow is learned as slow. For departures close to
/// the moment of ``live`` (the fleet's now), the live layer of the last minutes goes
/// on top, shrunk toward the weekly estimate with ``livePrior``.
public struct LearnedEdgeSpeeds: EdgeSpeedSource {
    /// Weight (edges driven) at which a group's own mean counts as much as the profile.
    public static let groupPrior = 4.0
    /// Weight at which an edge's own mean counts as much as its group's.
    public static let edgePrior = 2.0
    /// Weight at which the last minutes count as much as the weekly estimate.
    public static let livePrior = 0.3
    /// Weight at which a road's last minutes count as much as its weekly estimate.
    public static let liveRoadPrior = 0.3
    /// Departures this close to the moment of ``live``, seconds, use the live layer.
    public static let liveHorizonSeconds = 900.0
    /// Learned durations stay within these multiples of free flow.
    static let ratioRange = (low: 0.5, high: 20.0)

    /// The profile the learned speeds start from, and fall back to.
    public let base: ProfiledEdgeSpeeds
    /// The weekly observations.
    public let table: LearnedSpeedTable
    /// The live observations, per edge, and when they were taken; nil when none.
    public let live: (sums: [Int32: ObservationSums], at: Date)?
    /// The roads edges belong to, for pooling the live layer; nil pools per edge only.
    let roads: RoadChains?
    /// Each edge's group, an index into the groups the learner made.
    let edgeGroup: [Int32]
    let groupCount: Int

    /// Learned speeds over `base` from `table`, with the `live` layer taken
    /// at a moment, pooled per road of `roads`.
    public init(base: ProfiledEdgeSpeeds, table: LearnedSpeedTable, live: (sums: [Int32: ObservationSums], at: Date)?,
                groups: EdgeGroups, roads: RoadChains? = nil) {
        self.base = base
        self.table = table
        self.live = live
        self.roads = roads
        edgeGroup = groups.edgeGroup
        groupCount = groups.count
    }

    private func usesLive(_ date: Date) -> Bool {
        guard let live, !live.sums.isEmpty else { return false }
        return abs(date.timeIntervalSince(live.at)) <= Self.liveHorizonSeconds
    }

    public func durationsKey(hourOfWeek: Int) -> Int { hourOfWeek * WeekSlot.perHour }

    public func edgeDurations(hourOfWeek: Int) -> [UInt32] {
        weeklyEstimate(slot: hourOfWeek * WeekSlot.perHour).durations()
    }

    public func durationsKey(departing date: Date, timeZone: TimeZone) -> Int {
        let slot = WeekSlot.index(of: date, in: timeZone)
        return usesLive(date) ? WeekSlot.perWeek + slot : slot
    }

    public func edgeDurations(departing date: Date, timeZone: TimeZone) -> [UInt32] {
        var estimate = weeklyEstimate(slot: WeekSlot.index(of: date, in: timeZone))
        if usesLive(date), let live { estimate.addLive(live.sums, roads: roads) }
        return estimate.durations()
    }

    public func provenance(departing date: Date, timeZone: TimeZone) -> SpeedProvenance {
        if usesLive(date) { return .live }
        let slot = WeekSlot.index(of: date, in: timeZone)
        return pooledSlots(around: slot).contains { !table.slots[$0.slot].isEmpty } ? .learned : .profile
    }

    /// The slots pooled for a group's estimate in `slot`: the same time of
    /// day ± one slot on each day of the same kind (weekday or weekend),
    /// the neighbours at half weight.
    func pooledSlots(around slot: Int) -> [(slot: Int, weight: Double)] {
        let weekend = WeekSlot.isWeekend(slot)
        let days = weekend ? Array(5..<7) : Array(0..<5)
        let slotOfDay = slot % WeekSlot.perDay
        return days.flatMap { day in
            (-1...1).map { offset in
                (slot: day * WeekSlot.perDay + (slotOfDay + offset + WeekSlot.perDay) % WeekSlot.perDay,
                 weight: offset == 0 ? 1.0 : 0.5)
            }
        }
    }

    /// Log time ratios of every edge in `slot`, the profile's where nothing
    /// was learned: what the exported profile averages.
    func weeklyLogRatios(slot: Int) -> [Double] {
        weeklyEstimate(slot: slot).logRatios()
    }

    /// The weekly estimate of `slot`. Only the edges and groups with
    /// observations are worked out one by one; every other edge keeps the
    /// profile's duration, scaled by its group's shift. So putting learned
    /// speeds in force costs a pass over the edges, not a logarithm each.
    func weeklyEstimate(slot: Int) -> SlotEstimate {
        let hour = WeekSlot.hourOfWeek(slot)
        var factorsOfHour: [Int: ProfiledEdgeSpeeds.HourFactors] = [:]
        func factors(_ hour: Int) -> ProfiledEdgeSpeeds.HourFactors {
            if let known = factorsOfHour[hour] { return known }
            let factors = base.factors(hourOfWeek: hour)
            factorsOfHour[hour] = factors
            return factors
        }
        var groupWeight = [Double](repeating: 0, count: groupCount)
        var groupDeviation = [Double](repeating: 0, count: groupCount)
        for pooled in pooledSlots(around: slot) where !table.slots[pooled.slot].isEmpty {
            let prior = factors(WeekSlot.hourOfWeek(pooled.slot))
            for (edge, sums) in table.slots[pooled.slot] {
                let group = Int(edgeGroup[Int(edge)])
                groupWeight[group] += pooled.weight * sums.weight
                groupDeviation[group] += pooled.weight * (sums.logSum - sums.weight * base.logRatio(of: Int(edge), factors: prior))
            }
        }
        let groupShift = (0..<groupCount).map { groupDeviation[$0] / (groupWeight[$0] + Self.groupPrior) }
        var estimate = SlotEstimate(speeds: self, factors: factors(hour), groupShift: groupShift)
        var edgeSums: [Int32: ObservationSums] = [:]
        let day = slot / WeekSlot.perDay
        for offset in -1...1 {
            let neighbour = day * WeekSlot.perDay + (slot % WeekSlot.perDay + offset + WeekSlot.perDay) % WeekSlot.perDay
            for (edge, sums) in table.slots[neighbour] {
                edgeSums[edge, default: ObservationSums()].add(sums, scaledBy: offset == 0 ? 1.0 : 0.5)
            }
        }
        for (edge, sums) in edgeSums {
            estimate.ownLogRatio[edge] = (sums.logSum + Self.edgePrior * estimate.logRatio(of: Int(edge))) / (sums.weight + Self.edgePrior)
        }
        return estimate
    }

    /// The learned log time ratios of one slot, kept sparse: the profile's
    /// durations of the slot's hour, a shift per group (and per road, from
    /// the live layer), and the edges with an estimate of their own.
    struct SlotEstimate {
        let speeds: LearnedEdgeSpeeds
        let factors: ProfiledEdgeSpeeds.HourFactors
        /// Per group, the log shift from the profile.
        let groupShift: [Double]
        /// The edges whose own weekly observations set their log ratio.
        var ownLogRatio: [Int32: Double] = [:]
        /// The roads of the live layer and each road's log shift; nil without it.
        private(set) var roadShift: (roads: RoadChains, shift: [Double])?
        /// The edges the live layer observed: their final log ratio.
        private(set) var liveLogRatio: [Int32: Double] = [:]

        init(speeds: LearnedEdgeSpeeds, factors: ProfiledEdgeSpeeds.HourFactors, groupShift: [Double]) {
            self.speeds = speeds
            self.factors = factors
            self.groupShift = groupShift
        }

        /// The weekly log time ratio of `edge`: its own, else the profile's plus its group's shift.
        func logRatio(of edge: Int) -> Double {
            ownLogRatio[Int32(edge)]
                ?? speeds.base.logRatio(of: edge, factors: factors) + groupShift[Int(speeds.edgeGroup[edge])]
        }

        /// The log shift the live layer gives `edge`'s road.
        private func roadShift(of edge: Int) -> Double {
            roadShift.map { $0.shift[Int($0.roads.road[edge])] } ?? 0
        }

        /// Puts the live layer on top: every edge of a road with live
        /// observations moves by the road's mean deviation from the weekly
        /// estimate (shrunk with ``LearnedEdgeSpeeds/liveRoadPrior``), then
        /// each observed edge toward its own live mean (``LearnedEdgeSpeeds/livePrior``).
        mutating func addLive(_ live: [Int32: ObservationSums], roads: RoadChains?) {
            let observed = live.filter { $0.value.weight > 0 }
            if let roads {
                var weight: [Int32: Double] = [:], deviation: [Int32: Double] = [:]
                for (edge, sums) in observed {
                    let road = roads.road[Int(edge)]
                    weight[road, default: 0] += sums.weight
                    deviation[road, default: 0] += sums.logSum - sums.weight * logRatio(of: Int(edge))
                }
                var shift = [Double](repeating: 0, count: roads.roadCount)
                for (road, total) in deviation {
                    shift[Int(road)] = total / (weight[road, default: 0] + LearnedEdgeSpeeds.liveRoadPrior)
                }
                roadShift = (roads, shift)
            }
            for (edge, sums) in observed {
                let weekly = logRatio(of: Int(edge)) + roadShift(of: Int(edge))
                liveLogRatio[edge] = (sums.logSum + LearnedEdgeSpeeds.livePrior * weekly) / (sums.weight + LearnedEdgeSpeeds.livePrior)
            }
        }

        /// The final log time ratio of every edge.
        func logRatios() -> [Double] {
            (0..<speeds.base.freeFlowMs.count).map { edge in
                liveLogRatio[Int32(edge)] ?? logRatio(of: edge) + roadShift(of: edge)
            }
        }

        /// Every edge's duration, ms, within ``LearnedEdgeSpeeds/ratioRange``
        /// of free flow: one pass scales the profile's by the group's and the
        /// road's shifts; the edges with an estimate of their own follow.
        func durations() -> [UInt32] {
            let base = speeds.base
            let groupScale = groupShift.map { exp($0) }
            let roadScale = roadShift.map { ($0.roads.road, $0.shift.map { exp($0) }) }
            var durations = speeds.edgeGroup.withUnsafeBufferPointer { edgeGroup in
                (0..<base.freeFlowMs.count).map { edge -> UInt32 in
                    let freeFlow = base.freeFlowMs[edge]
                    guard freeFlow != unreachableMs, freeFlow > 0 else { return freeFlow }
                    var scale = groupScale[Int(edgeGroup[edge])]
                    if let (road, roadScale) = roadScale { scale *= roadScale[Int(road[edge])] }
                    return Self.duration(freeFlow: freeFlow, ratio: Double(base.duration(of: edge, factors: factors)) * scale / Double(freeFlow))
                }
            }
            for (edge, own) in ownLogRatio where liveLogRatio[edge] == nil {
                durations[Int(edge)] = Self.duration(freeFlow: base.freeFlowMs[Int(edge)], ratio: exp(own + roadShift(of: Int(edge))))
            }
            for (edge, live) in liveLogRatio {
                durations[Int(edge)] = Self.duration(freeFlow: base.freeFlowMs[Int(edge)], ratio: exp(live))
            }
            return durations
        }

        /// `freeFlow` times `ratio` kept within ``LearnedEdgeSpeeds/ratioRange``, ms.
        private static func duration(freeFlow: UInt32, ratio: Double) -> UInt32 {
            guard freeFlow != unreachableMs else { return unreachableMs }
            let range = LearnedEdgeSpeeds.ratioRange
            let scaled = (Double(freeFlow) * min(max(ratio, range.low), range.high)).rounded()
            return scaled >= Double(unreachableMs) ? unreachableMs - 1 : UInt32(scaled)
        }
    }
}

/// Edges that share road class, lane class and area zone: where an edge's
/// own data is thin, its group's tells how its kind of street flows.
public struct EdgeGroups: Sendable {
    /// Each edge's group.
    public let edgeGroup: [Int32]
    /// How many groups.
    public let count: Int

    /// The groups of `graph`'s edges, by the zone table when the graph has one.
    public init(graph: RoadGraph, zones: EdgeZones?) {
        var index: [Int: Int32] = [:]
        edgeGroup = (0..<graph.edgeCount).map { edge in
            let zone = Int(zones?.edgeZone[edge] ?? EdgeZones.noZone)
            let key = (zone * 64 + Int(graph.edgeRoadClass[edge].rawValue)) * 8 + Int(graph.edgeLaneClass[edge].rawValue)
            if let known = index[key] { return known }
            let group = Int32(index.count)
            index[key] = group
            return group
        }
        count = index.count
    }
}
