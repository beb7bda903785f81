import Foundation
import GeoKit
import Testing
@testable import Routing

/// A metric updated for a few changed edges is the metric a full customization gives.
@Suite(.timeLimit(.minutes(20))) struct CCHMetricUpdateTests {
    /// Rounds of random changes to 1 % of the edges (slower, faster, closed,
    /// reopened), each update made from the last: every arc's weight,
    /// length and unpacking equal a customization from scratch, on one thread.
    @Test(arguments: [0, 1, 2])
    func anUpdateEqualsACustomizationFromScratch(graphIndex: Int) throws {
        let graph = CCHTests.graphs[graphIndex].1
        let topology = CCHTopology(graph: graph)
        let triangles = CCHLowerTriangles(topology: topology)
        var weights = graph.edgeDurationMs
        var metric = CCHMetric(topology: topology, graph: graph, weights: weights)
        var random = SplitMix64(state: 17)
        for round in 0..<6 {
            for _ in 0..<max(weights.count / 100, 1) {
                let edge = Int(random.next() % UInt64(weights.count))
                switch random.next() % 4 {
                case 0: weights[edge] = unreachableMs
                case 1: weights[edge] = graph.edgeDurationMs[edge]
                case 2: weights[edge] = graph.edgeDurationMs[edge] * 3
                default: weights[edge] = max(graph.edgeDurationMs[edge] / 2, 1)
                }
            }
            let updated = try #require(metric.updated(to: weights, topology: topology, graph: graph, triangles: triangles),
                                       "round \(round): 1 % of the edges changed")
            let fresh = CCHMetric(topology: topology, graph: graph, weights: weights)
            #expect(updated.edgeWeights == fresh.edgeWeights)
            #expect(updated.upWeight == fresh.upWeight && updated.downWeight == fresh.downWeight, "round \(round)")
            #expect(updated.upLength == fresh.upLength && updated.downLength == fresh.downLength, "round \(round)")
            #expect(updated.upUnpack == fresh.upUnpack && updated.downUnpack == fresh.downUnpack, "round \(round)")
            metric = updated
        }
    }

    /// Past the share of changed edges where a full customization is faster, the update declines.
    @Test func manyChangedEdgesAreLeftToAFullCustomization() {
        let graph = CCHTests.graphs[0].1
        let topology = CCHTopology(graph: graph)
        let metric = CCHMetric(topology: topology, graph: graph, weights: graph.edgeDurationMs)
        let slower = graph.edgeDurationMs.map { $0 * 2 }
        #expect(metric.updated(to: slower, topology: topology, graph: graph, triangles: CCHLowerTriangles(topology: topology)) == nil)
    }

    /// The router puts a closure of a few streets in force by updating the
    /// metric it had: its routes are those of a router that had the closure from the start.
    @Test func theRouterUpdatesItsMetricForAFewChangedStreets() throws {
        let graph = CCHTests.graphs[2].1
        let timeZone = try #require(TimeZone(identifier: "UTC"))
        let depart = Date(timeIntervalSince1970: 1_700_000_000)
        let router = RoadRouter(graph: graph, timeZone: timeZone)
        let closed = Array(stride(from: 0, to: graph.edgeCount, by: 97))
        let closure = IncidentSpeeds(base: router.speeds, incidents: [
            RoadIncident(roadName: "works", edges: closed, start: depart.addingTimeInterval(-600),
                         end: depart.addingTimeInterval(3_600), factor: 10),
        ])
        _ = router.metric(departing: depart)
        router.replaceSpeeds(with: closure, preparing: [depart])
        let expected = CCHMetric(topology: router.topology, graph: graph,
                                 weights: closure.edgeDurations(departing: depart, timeZone: timeZone))
        let inForce = router.metric(departing: depart)
        #expect(inForce.edgeWeights == expected.edgeWeights)
        #expect(inForce.upWeight == expected.upWeight && inForce.downWeight == expected.downWeight)
        #expect(inForce.edgeWeights != router.metric(departing: depart.addingTimeInterval(7_200)).edgeWeights,
                "the closure is over two hours later")
    }
}
