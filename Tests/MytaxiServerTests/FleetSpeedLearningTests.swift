import FixRecords
import Foundation
import GeoKit
import Logging
import Metrics
import Routing
import Storage
import Testing
@testable import MytaxiServer

/// The service's learning puts new speeds in force only when there is
/// something new: a customization costs a core for a moment (2.6 s on a
/// million-node graph), so an idle minute must cost nothing.
@Suite(.timeLimit(.minutes(20))) struct FleetSpeedLearningTests {
    @Test func speedsArePublishedOnlyWhenFixesTheFleetTimeOrTheQuarterHourChanged() async throws {
        let router = RoadRouter(graph: SyntheticCity.grid(columns: 6, rows: 6), timeZone: .gmt)
        let learning = await FleetSpeedLearning(
            router: router, store: InMemoryLearnedSpeedStore(), metricsFactory: NOOPMetricsHandler.instance, logger: Logger(label: "test"))
        let quarter = Date(timeIntervalSince1970: 1_790_000_100)
        #expect(learning.publish(now: quarter), "the first publication")
        #expect(!learning.publish(now: quarter.addingTimeInterval(60)), "nothing new a minute later")

        let fix = AcceptedFix(
            taxiId: "T1", deviceId: "d1", wireProtocol: .line, time: quarter.addingTimeInterval(90),
            coordinate: Coordinate(longitude: 0.001, latitude: 0.001), speedKmh: 20, heading: 0, zoneId: nil, receivedAt: quarter.addingTimeInterval(90))
        learning.receive([fix])
        learning.learnWaiting()
        #expect(learning.publish(now: quarter.addingTimeInterval(120)), "a fix moved the fleet's time")
        #expect(!learning.publish(now: quarter.addingTimeInterval(180)))
        #expect(learning.publish(now: quarter.addingTimeInterval(900)), "the next quarter-hour's metric is prepared")
    }
}
