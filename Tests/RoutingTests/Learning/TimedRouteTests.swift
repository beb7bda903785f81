import Foundation
import GeoKit
import Testing
@testable import Routing

/// Routes driven edge by edge, and timed again when speeds change under way.
@Suite(.timeLimit(.minutes(20))) struct TimedRouteTests {
    @Test func aTimedRouteTakesTheRoutersTimeAndMovesAlongItsEdges() throws {
        let graph = SyntheticCity.grid(columns: 8, rows: 8)
        let router = RoadRouter(graph: graph, timeZone: .gmt)
        let from = graph.coordinates[3], to = graph.coordinates[60]
        let depart = Date(timeIntervalSince1970: 1_704_096_000)
        let timed = try router.timedRoute(from: from, to: to, depart: depart)
        let route = try router.route(from: from, to: to, depart: depart)
        #expect(abs(timed.durationSeconds - (route.durationSeconds - router.tripOverheadSeconds)) < 0.5)
        #expect(timed.position(after: 0).coordinate.haversineDistance(to: from) < 20)
        #expect(timed.position(after: .infinity).coordinate.haversineDistance(to: to) < 20)
        let middle = timed.stretches[timed.stretches.count / 2]
        #expect(timed.position(after: (middle.start + middle.end) / 2).edge == middle.edge)
    }

    @Test func retimingSlowsOnlyWhatIsLeftOfTheDrive() throws {
        let graph = SyntheticCity.grid(columns: 8, rows: 8)
        let router = RoadRouter(graph: graph, timeZone: .gmt)
        let timed = try router.timedRoute(from: graph.coordinates[8 + 1], to: graph.coordinates[8 * 6 + 6], depart: Date(timeIntervalSince1970: 0))
        let halfway = timed.durationSeconds / 2
        let place = timed.position(after: halfway).coordinate
        let doubled = router.metric(departing: Date(timeIntervalSince1970: 0)).edgeWeights.map { $0 * 2 }
        let slowed = timed.retimed(after: halfway, weights: doubled)
        #expect(abs(slowed.durationSeconds - timed.durationSeconds * 1.5) < 1, "the second half takes twice as long")
        #expect(slowed.position(after: halfway).coordinate.haversineDistance(to: place) < 0.5, "no jump where the speeds changed")
    }
}
