import Foundation
import GeoKit
import Testing
@testable import Routing

/// The learned durations the router customizes from are the estimator
/// docs/learned-speeds.md describes: written out here edge by edge, in
/// logarithms, and compared with the service's sparse computation on
/// random observations, with and without the live layer.
@Suite(.timeLimit(.minutes(20))) struct LearnedEdgeSpeedsTests {
    static let monday8 = Date(timeIntervalSince1970: 1_704_096_000)  // Monday 2024-01-01 08:00 UTC

    @Test(arguments: [1, 2, 3])
    func theSparseDurationsAreTheEstimatorEdgeByEdge(seed: UInt64) throws {
        let graph = SyntheticCity.grid(columns: 10, rows: 10)
        let router = RoadRouter(graph: graph, timeZone: .gmt)
        let base = ProfiledEdgeSpeeds(graph: graph, profile: .denseCity)
        var random = SplitMix64(state: seed)
        let slot = WeekSlot.index(of: Self.monday8, in: .gmt)
        var cells: [(edge: Int, slot: Int, sums: ObservationSums)] = []
        for _ in 0..<300 {
            let weight = 0.2 + random.nextUnit() * 3
            cells.append((Int(random.next() % UInt64(graph.edgeCount)),
                          slot + Int(random.next() % 5) - 2 + WeekSlot.perDay * Int(random.next() % 2),
                          ObservationSums(weight: weight, logSum: weight * (random.nextUnit() * 2 - 0.5))))
        }
        var live: [Int32: ObservationSums] = [:]
        for _ in 0..<40 {
            let weight = random.nextUnit() * 2
            live[Int32(random.next() % UInt64(graph.edgeCount))] = ObservationSums(weight: weight, logSum: weight * random.nextUnit() * 1.5)
        }
        let groups = EdgeGroups(graph: graph, zones: nil)
        let roads = RoadChains(graph: graph, edgeTail: router.snapper.edgeTail)
        let table = LearnedSpeedTable(cells: cells)
        let weeklySpeeds = LearnedEdgeSpeeds(base: base, table: table, live: nil, groups: groups)
        let liveSpeeds = LearnedEdgeSpeeds(base: base, table: table, live: (live, Self.monday8), groups: groups, roads: roads)

        let weekly = Self.writtenOut(base: base, cells: table.cells, slot: slot, groups: groups)
        let withLive = Self.withLive(weekly, live: live, roads: roads)
        for (got, ratios) in [(weeklySpeeds.edgeDurations(departing: Self.monday8, timeZone: .gmt), weekly),
                              (liveSpeeds.edgeDurations(departing: Self.monday8, timeZone: .gmt), withLive)] {
            for edge in 0..<graph.edgeCount {
                let want = Self.duration(freeFlow: base.freeFlowMs[edge], logRatio: ratios[edge])
                #expect(abs(Int(got[edge]) - Int(want)) <= 1, "edge \(edge): \(got[edge]) ms, written out \(want) ms")
            }
        }
    }

    /// Weekly log ratios of every edge in `slot`: group shift over the
    /// pooled slots, then each edge's own observations over ± one slot.
    static func writtenOut(base: ProfiledEdgeSpeeds, cells: [(edge: Int, slot: Int, sums: ObservationSums)], slot: Int,
                           groups: EdgeGroups) -> [Double] {
        func profile(_ hour: Int) -> [Double] {
            zip(base.edgeDurations(hourOfWeek: hour), base.freeFlowMs).map { duration, freeFlow in
                duration == unreachableMs || freeFlow == 0 ? 0 : log(Double(duration) / Double(freeFlow))
            }
        }
        let slotOfDay = slot % WeekSlot.perDay
        var groupWeight = [Double](repeating: 0, count: groups.count), groupDeviation = groupWeight
        var edgeWeight = [Double](repeating: 0, count: base.freeFlowMs.count), edgeLogSum = edgeWeight
        for cell in cells {
            let offset = cell.slot % WeekSlot.perDay - slotOfDay
            guard abs(offset) <= 1, !WeekSlot.isWeekend(cell.slot) else { continue }
            let weight = offset == 0 ? 1.0 : 0.5
            let group = Int(groups.edgeGroup[cell.edge])
            groupWeight[group] += weight * cell.sums.weight
            groupDeviation[group] += weight * (cell.sums.logSum - cell.sums.weight * profile(WeekSlot.hourOfWeek(cell.slot))[cell.edge])
            if cell.slot / WeekSlot.perDay == slot / WeekSlot.perDay {
                edgeWeight[cell.edge] += weight * cell.sums.weight
                edgeLogSum[cell.edge] += weight * cell.sums.logSum
            }
        }
        let own = profile(WeekSlot.hourOfWeek(slot))
        return own.indices.map { edge in
            let group = Int(groups.edgeGroup[edge])
            let prior = own[edge] + groupDeviation[group] / (groupWeight[group] + LearnedEdgeSpeeds.groupPrior)
            guard edgeWeight[edge] > 0 else { return prior }
            return (edgeLogSum[edge] + LearnedEdgeSpeeds.edgePrior * prior) / (edgeWeight[edge] + LearnedEdgeSpeeds.edgePrior)
        }
    }

    /// `weekly` with the live layer: per road, then per observed edge.
    static func withLive(_ weekly: [Double], live: [Int32: ObservationSums], roads: RoadChains) -> [Double] {
        var roadWeight = [Double](repeating: 0, count: roads.roadCount), roadDeviation = roadWeight
        for (edge, sums) in live where sums.weight > 0 {
            roadWeight[Int(roads.road[Int(edge)])] += sums.weight
            roadDeviation[Int(roads.road[Int(edge)])] += sums.logSum - sums.weight * weekly[Int(edge)]
        }
        var ratios = weekly.indices.map { edge in
            let road = Int(roads.road[edge])
            return weekly[edge] + roadDeviation[road] / (roadWeight[road] + LearnedEdgeSpeeds.liveRoadPrior)
        }
        for (edge, sums) in live where sums.weight > 0 {
            let index = Int(edge)
            ratios[index] = (sums.logSum + LearnedEdgeSpeeds.livePrior * ratios[index]) / (sums.weight + LearnedEdgeSpeeds.livePrior)
        }
        return ratios
    }

    static func duration(freeFlow: UInt32, logRatio: Double) -> UInt32 {
        guard freeFlow != unreachableMs else { return unreachableMs }
        let range = LearnedEdgeSpeeds.ratioRange
        return UInt32((Double(freeFlow) * exp(min(max(logRatio, log(range.low)), log(range.high)))).rounded())
    }
}
