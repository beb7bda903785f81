import Foundation
import GeoKit
import Testing
@testable import Routing

/// Road names from the map, incidents on named roads, and the speeds they slow.
@Suite(.timeLimit(.minutes(20))) struct RoadIncidentTests {
    static func names() throws -> (names: EdgeNames, graph: RoadGraph) {
        var map = TinyMap("""
            a b c
            d e f
            """)
        map.way("abc", ["highway": "primary", "name": "7th Avenue"])
        map.way("def", ["highway": "residential", "name": "West 40th Street"])
        map.way("ad", ["highway": "service"])
        let result = try map.build()
        return (EdgeNames(edgeWayIDs: result.edgeWayIDs, ways: try map.extract().ways), result.graph)
    }

    @Test func namesComeFromTheWaysAndMatchWithoutCaseOrAbbreviation() throws {
        let (names, graph) = try Self.names()
        #expect(Set(names.names) == ["7th Avenue", "West 40th Street"])
        let avenue = names.edges(named: "7th ave")
        #expect(avenue.count == 4, "two segments, both ways")
        #expect(avenue.allSatisfy { graph.edgeRoadClass[$0] == .primary })
        #expect(names.edges(named: "west 40th st").count == 4)
        #expect(names.edges(named: "8th Avenue").isEmpty)
        #expect((0..<graph.edgeCount).contains { names.name(ofEdge: $0) == nil }, "the unnamed service road")
        let stored = try #require(try EdgeNames(sections: names.sections, edgeCount: graph.edgeCount))
        #expect(stored == names)
        #expect(throws: GraphFileError.self) { try EdgeNames(sections: names.sections, edgeCount: graph.edgeCount + 1) }
    }

    @Test func anIncidentIsReadWithItsRoadAndTimesAndEveryMistakeIsNamed() throws {
        let (names, _) = try Self.names()
        let start = Date(timeIntervalSince1970: 1_000_000)
        let incident = try RoadIncident(parsing: "7th Avenue, 30, 45, 0.25", names: names, simulationStart: start)
        #expect(incident.edges.count == 4 && incident.factor == 0.25)
        #expect(incident.start == start.addingTimeInterval(1800) && incident.end == start.addingTimeInterval(4500))
        #expect(incident.isActive(at: start.addingTimeInterval(2000)) && !incident.isActive(at: start.addingTimeInterval(4500)))
        #expect(throws: RoadIncidentError.wrongFieldCount(text: "7th Avenue,30,45", count: 3)) {
            try RoadIncident(parsing: "7th Avenue,30,45", names: names, simulationStart: start)
        }
        #expect(throws: RoadIncidentError.unknownRoad("7th", suggestions: ["7th Avenue"])) {
            try RoadIncident(parsing: "7th,30,45,0.5", names: names, simulationStart: start)
        }
        #expect(throws: RoadIncidentError.graphWithoutNames) {
            try RoadIncident(parsing: "7th Avenue,30,45,0.5", names: nil, simulationStart: start)
        }
        let zero = RoadIncidentError.invalidField(field: "FACTOR", value: "0", reason: "is not a speed multiplier in (0, 2] (0.2 = a fifth of the speed)")
        #expect(throws: zero) { try RoadIncident(parsing: "7th Avenue,30,45,0", names: names, simulationStart: start) }
        #expect("\(RoadIncidentError.unknownRoad("7th", suggestions: ["7th Avenue"]))".contains("did you mean '7th Avenue'"))
    }

    @Test func anIncidentSlowsItsRoadOnlyWhileItLasts() throws {
        let (names, graph) = try Self.names()
        let start = Date(timeIntervalSince1970: 1_000_000)
        let incident = try RoadIncident(parsing: "7th Avenue,10,20,0.5", names: names, simulationStart: start)
        let speeds = IncidentSpeeds(base: ProfiledEdgeSpeeds(graph: graph, profile: .freeFlow), incidents: [incident])
        let before = speeds.edgeDurations(departing: start, timeZone: .gmt)
        let during = speeds.edgeDurations(departing: start.addingTimeInterval(900), timeZone: .gmt)
        for edge in 0..<graph.edgeCount {
            let slowed = incident.edges.contains(edge)
            #expect(during[edge] == (slowed ? before[edge] * 2 : before[edge]))
        }
        #expect(speeds.durationsKey(departing: start, timeZone: .gmt) != speeds.durationsKey(departing: start.addingTimeInterval(900), timeZone: .gmt))
    }
}
