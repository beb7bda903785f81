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
        weeklyLogRatios(slot: hourOfWeek * WeekSlot.perHour).durations(freeFlow: base.freeFlowMs)
    }

    public func durationsKey(departing date: Date, timeZone: TimeZone) -> Int {
        let slot = WeekSlot.index(of: date, in: timeZone)
        return usesLive(date) ? WeekSlot.perWeek + slot : slot
    }

    public func edgeDurations(departing date: Date, timeZone: TimeZone) -> [UInt32] {
        var ratios = weeklyLogRatios(slot: WeekSlot.index(of: date, in: timeZone))
        if usesLive(date), let live {
            if let roads { ratios.shiftRoads(roads, by: live.sums) }
            for (edge, sums) in live.sums where sums.weight > 0 {
                let index = Int(edge)
                ratios.values[index] = (sums.logSum + Self.livePrior * ratios.values[index]) / (sums.weight + Self.livePrior)
            }
        }
        return ratios.durations(freeFlow: base.freeFlowMs)
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

    /// Log time ratios of every edge in `slot`, the profile's where nothing was learned.
    func weeklyLogRatios(slot: Int) -> LogRatios {
        var profileRatios: [Int: [Double]] = [:]
        func profile(_ hour: Int) -> [Double] {
            if let known = profileRatios[hour] { return known }
            let durations = base.edgeDurations(hourOfWeek: hour)
            let ratios = zip(durations, base.freeFlowMs).map { duration, freeFlow in
                duration == unreachableMs || freeFlow == 0 ? 0 : log(Double(duration) / Double(freeFlow))
            }
            profileRatios[hour] = ratios
            return ratios
        }
        let own = profile(WeekSlot.hourOfWeek(slot))
        var groupWeight = [Double](repeating: 0, count: groupCount)
        var groupDeviation = [Double](repeating: 0, count: groupCount)
        for pooled in pooledSlots(around: slot) where !table.slots[pooled.slot].isEmpty {
            let prior = profile(WeekSlot.hourOfWeek(pooled.slot))
            for (edge, sums) in table.slots[pooled.slot] {
                let group = Int(edgeGroup[Int(edge)])
                groupWeight[group] += pooled.weight * sums.weight
                groupDeviation[group] += pooled.weight * (sums.logSum - sums.weight * prior[Int(edge)])
            }
        }
        let shift = (0..<groupCount).map { groupDeviation[$0] / (groupWeight[$0] + Self.groupPrior) }
        var values = zip(own, edgeGroup).map { ratio, group in ratio + shift[Int(group)] }
        var edgeSums: [Int32: ObservationSums] = [:]
        let day = slot / WeekSlot.perDay
        for offset in -1...1 {
            let neighbour = day * WeekSlot.perDay + (slot % WeekSlot.perDay + offset + WeekSlot.perDay) % WeekSlot.perDay
            let weight = offset == 0 ? 1.0 : 0.5
            for (edge, sums) in table.slots[neighbour] {
                edgeSums[edge, default: ObservationSums()].add(sums, scaledBy: weight)
            }
        }
        for (edge, sums) in edgeSums {
            let index = Int(edge)
            values[index] = (sums.logSum + Self.edgePrior * values[index]) / (sums.weight + Self.edgePrior)
        }
        return LogRatios(values: values)
    }

    /// Per-edge log time ratios, turned into durations.
    struct LogRatios {
        var values: [Double]

        /// Moves every edge of each road with live observations by the
        /// road's mean deviation from these ratios, shrunk toward none with ``liveRoadPrior``.
        mutating func shiftRoads(_ roads: RoadChains, by live: [Int32: ObservationSums]) {
            var weight: [Int32: Double] = [:], deviation: [Int32: Double] = [:]
            for (edge, sums) in live where sums.weight > 0 {
                let road = roads.road[Int(edge)]
                weight[road, default: 0] += sums.weight
                deviation[road, default: 0] += sums.logSum - sums.weight * values[Int(edge)]
            }
            let shift = deviation.reduce(into: [Int32: Double]()) { shifts, entry in
                shifts[entry.key] = entry.value / (weight[entry.key, default: 0] + LearnedEdgeSpeeds.liveRoadPrior)
            }
            for edge in values.indices {
                if let moved = shift[roads.road[edge]] { values[edge] += moved }
            }
        }

        func durations(freeFlow: [UInt32]) -> [UInt32] {
            let low = log(LearnedEdgeSpeeds.ratioRange.low), high = log(LearnedEdgeSpeeds.ratioRange.high)
            return zip(values, freeFlow).map { ratio, freeFlow in
                guard freeFlow != unreachableMs else { return unreachableMs }
                let scaled = (Double(freeFlow) * exp(min(max(ratio, low), high))).rounded()
                return scaled >= Double(unreachableMs) ? unreachableMs - 1 : UInt32(scaled)
            }
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
