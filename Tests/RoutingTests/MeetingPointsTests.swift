import Foundation
import GeoKit
import Testing
@testable import Routing

/// Meeting points (SPEC R5): a pickup no taxi can reach exactly is served
/// where a taxi can stop nearest on foot, and the passenger is told the walk.
@Suite(.timeLimit(.minutes(20))) struct MeetingPointsTests {
    /// A 20 × 20 grid of 80 m blocks whose middle nodes (columns and rows
    /// 9 to 11) stand in a park: no road for cars touches them.
    static let city = TestGraphs.grid(20, 20)
    static let side = 20
    static let parkNodes = Set((9...11).flatMap { row in (9...11).map { row * side + $0 } })

    /// The city's roads as edges, keeping those `keep` takes, classed by `roadClass`.
    static func roads(keeping keep: (Int, Int) -> Bool = { _, _ in true },
                      roadClass: (Int, Int) -> RoadClass? = { _, _ in nil },
                      metresPerSecond: Double? = nil) -> RoadGraph {
        let tails = city.edgeTails()
        let edges = (0..<city.edgeCount).compactMap { edge -> SyntheticCity.Edge? in
            let tail = Int(tails[edge]), head = Int(city.edgeHead[edge])
            guard keep(tail, head) else { return nil }
            let metres = city.edgeLengthMetres[edge]
            let duration = metresPerSecond.map { UInt32(Double(metres) / $0 * 1000) } ?? city.edgeDurationMs[edge]
            return SyntheticCity.Edge(tail: UInt32(tail), head: UInt32(head), durationMs: duration, lengthMetres: metres,
                                      roadClass: roadClass(tail, head) ?? city.edgeRoadClass[edge])
        }
        return SyntheticCity.graph(coordinates: city.coordinates, edges: edges)
    }

    /// The car roads: every road but those of the park.
    static let carRoads = roads(keeping: { !parkNodes.contains($0) && !parkNodes.contains($1) })
    /// The walking graph: every road and the park's paths, at 1.4 m/s, both ways.
    static let walkingPaths: RoadGraph = {
        let tails = city.edgeTails()
        let edges = (0..<city.edgeCount).flatMap { edge -> [SyntheticCity.Edge] in
            let tail = tails[edge], head = city.edgeHead[edge], metres = city.edgeLengthMetres[edge]
            let duration = UInt32(Double(metres) / 1.4 * 1000)
            return [SyntheticCity.Edge(tail: tail, head: head, durationMs: duration, lengthMetres: metres, roadClass: .footway),
                    SyntheticCity.Edge(tail: head, head: tail, durationMs: duration, lengthMetres: metres, roadClass: .footway)]
        }
        return SyntheticCity.graph(coordinates: city.coordinates, edges: edges)
    }()

    static func router(_ graph: RoadGraph) -> RoadRouter {
        RoadRouter(graph: graph, speeds: ProfiledEdgeSpeeds(graph: graph, profile: .freeFlow), timeZone: .gmt)
    }

    static let parkCentre = city.coordinates[10 * side + 10]
    static let depart = Date(timeIntervalSince1970: 1_790_000_000)

    @Test func aPickupBesideAStreetIsServedAtTheDoor() throws {
        let points = MeetingPoints(car: Self.router(Self.carRoads), foot: Self.router(Self.walkingPaths))
        let corner = Self.city.coordinates[3 * Self.side + 3]
        let beside = Coordinate(longitude: corner.longitude + 0.0001, latitude: corner.latitude)
        #expect(try points.meetingPoint(for: beside, depart: Self.depart) == nil)
    }

    @Test func aPickupInAParkIsServedWhereTheWalkOutIsShortest() throws {
        let car = Self.router(Self.carRoads)
        let points = MeetingPoints(car: car, foot: Self.router(Self.walkingPaths))
        let meeting = try #require(try points.meetingPoint(for: Self.parkCentre, depart: Self.depart))
        #expect(meeting.walkRouted)
        let stopSnap = try car.snapper.snap(meeting.stop, maxDistanceMetres: 1)
        #expect(stopSnap.distanceMetres < 0.5, "the stop is on a road for cars")
        let straight = Self.parkCentre.haversineDistance(to: meeting.stop)
        #expect(straight > 140 && straight < 190, "two blocks out of the park, \(straight) m")
        #expect(meeting.walkMetres >= straight - 1 && meeting.walkMetres < straight * 1.3, "\(meeting.walkMetres) m")
        #expect(abs(meeting.walkSeconds - meeting.walkMetres / 1.4) < 5, "\(meeting.walkSeconds) s for \(meeting.walkMetres) m")
        for node in [8 * Self.side + 10, 12 * Self.side + 10, 10 * Self.side + 8, 10 * Self.side + 12] {
            let exit = Self.city.coordinates[node]
            #expect(meeting.walkMetres <= Self.parkCentre.haversineDistance(to: exit) * 1.1,
                    "no exit of the park is much nearer than the meeting point")
        }
    }

    @Test func withoutAWalkingGraphTheWalkIsTheStretchedStraightLine() throws {
        let points = MeetingPoints(car: Self.router(Self.carRoads), foot: nil)
        let meeting = try #require(try points.meetingPoint(for: Self.parkCentre, depart: Self.depart))
        #expect(!meeting.walkRouted)
        let straight = Self.parkCentre.haversineDistance(to: meeting.stop)
        #expect(abs(meeting.walkMetres - straight * MeetingPoints.straightLineDetour) < 0.01)
        #expect(abs(meeting.walkSeconds - meeting.walkMetres / MeetingPoints.walkingSpeedMetresPerSecond) < 0.01)
    }

    @Test func noTaxiStopsOnAMotorway() throws {
        let row = 5
        let onRow = { (node: Int) in node / Self.side == row }
        let motorwayRow = Self.roads(roadClass: { onRow($0) && onRow($1) ? .motorway : nil })
        let points = MeetingPoints(car: Self.router(motorwayRow), foot: Self.router(Self.walkingPaths))
        let onTheMotorway = Self.city.coordinates[row * Self.side + 4].midpoint(Self.city.coordinates[row * Self.side + 5])
        let meeting = try #require(try points.meetingPoint(for: onTheMotorway, depart: Self.depart))
        let stopEdge = try Self.router(motorwayRow).snapper.snap(meeting.stop, maxDistanceMetres: 1).edge
        #expect(MeetingPoints.taxiCanStop(on: motorwayRow.edgeRoadClass[stopEdge]))
        #expect(meeting.walkMetres > 30 && meeting.walkMetres < 100, "off the motorway, \(meeting.walkMetres) m")

        let allMotorway = Self.roads(roadClass: { _, _ in .motorway })
        let nowhere = MeetingPoints(car: Self.router(allMotorway), foot: nil)
        #expect(throws: SnapError.noRoadToStopOn(withinMetres: MeetingPoints.searchRadiusMetres)) {
            try nowhere.meetingPoint(for: onTheMotorway, depart: Self.depart)
        }
    }
}

private extension Coordinate {
    /// The point halfway to `other` (near enough on a city's scale).
    func midpoint(_ other: Coordinate) -> Coordinate {
        Coordinate(longitude: (longitude + other.longitude) / 2, latitude: (latitude + other.latitude) / 2)
    }
}
