import DispatchSimulation
import Foundation
import GeoKit
import Routing
import Testing

/// A simulated drive follows its route edge by edge, each edge at its own
/// speed, and spends the trip overhead standing at both ends, so that the
/// service sees a slow road in the fixes as a slow road.
///
/// The map, 200 m blocks, every road two-way at 36 km/h (20 s a block):
///
///     C ---- D
///     |
///     |
///     A ---- B      (north up; A-B east, B-C north, C-D east)
@Suite(.timeLimit(.minutes(20))) struct RoadDriveTests {
    static let origin = Coordinate(longitude: -73.99, latitude: 40.75)
    static let a = origin, b = origin.offset(eastMetres: 200, northMetres: 0)
    static let c = origin.offset(eastMetres: 200, northMetres: 200), d = origin.offset(eastMetres: 400, northMetres: 200)
    static let graph: RoadGraph = {
        let nodes = [a, b, c, d]
        let edges = [(0, 1), (1, 2), (2, 3)].flatMap { tail, head in
            [(tail, head), (head, tail)].map { from, to in
                SyntheticCity.Edge(tail: UInt32(from), head: UInt32(to), durationMs: 20_000, lengthMetres: 200, roadClass: .residential)
            }
        }
        return SyntheticCity.graph(coordinates: nodes, edges: edges)
    }()
    /// The edge from B to C.
    static let bc = graph.edges(from: 1).first { graph.edgeHead[$0] == 2 }!
    static let depart = Date(timeIntervalSince1970: 1_795_420_800)
    /// 20 m into A-B, and 20 m before the end of C-D.
    static let from = origin.offset(eastMetres: 20, northMetres: 0), to = origin.offset(eastMetres: 380, northMetres: 200)

    /// A router at free flow with `overhead` seconds of trip overhead, B-C slowed to `factor` of its speed.
    static func router(overhead: Double = 0, factor: Double = 1) -> RoadRouter {
        let base = ProfiledEdgeSpeeds(graph: graph, profile: SpeedProfile(uniform: 1))
        let slowed = RoadIncident(roadName: "B-C", edges: [bc], start: .distantPast, end: .distantFuture, factor: factor)
        return RoadRouter(graph: graph, speeds: IncidentSpeeds(base: base, incidents: factor == 1 ? [] : [slowed]),
                      timeZone: TimeZone(identifier: "UTC")!, tripOverheadSeconds: overhead)
    }

    /// Seconds of the drive, sampled every 0.1 s, that the taxi spends strictly inside block B-C.
    static func secondsOnBC(_ drive: RoadDrive) -> Double {
        let samples = stride(from: 0.0, to: drive.durationSeconds, by: 0.1).filter { elapsed in
            let point = drive.position(after: elapsed).coordinate
            return distance(point, toSegment: b, c) < 0.05 && point.haversineDistance(to: b) > 0.1 && point.haversineDistance(to: c) > 0.1
        }
        return Double(samples.count) / 10
    }

    /// How far `point` is from the segment `start`-`end`, metres (flat near the origin).
    static func distance(_ point: Coordinate, toSegment start: Coordinate, _ end: Coordinate) -> Double {
        let metresPerDegree = Coordinate.earthRadiusMetres * .pi / 180, east = metresPerDegree * cos(origin.latitude * .pi / 180)
        func local(_ p: Coordinate) -> (x: Double, y: Double) {
            ((p.longitude - origin.longitude) * east, (p.latitude - origin.latitude) * metresPerDegree)
        }
        let (p, s, e) = (local(point), local(start), local(end))
        let (dx, dy) = (e.x - s.x, e.y - s.y)
        let t = max(0, min(1, ((p.x - s.x) * dx + (p.y - s.y) * dy) / (dx * dx + dy * dy)))
        return hypot(p.x - s.x - t * dx, p.y - s.y - t * dy)
    }

    @Test func aSlowedEdgeTakesLongerAndOnlyThatEdge() {
        let usual = RoadDrive(router: Self.router(), from: Self.from, to: Self.to, depart: Self.depart, withPath: true)
        let slowed = RoadDrive(router: Self.router(factor: 0.25), from: Self.from, to: Self.to, depart: Self.depart, withPath: true)
        #expect(abs(usual.durationSeconds - 56) < 0.01, "18 + 20 + 18 s: \(usual.durationSeconds)")
        #expect(abs(slowed.durationSeconds - 116) < 0.01, "B-C at a quarter of its speed: 80 s instead of 20")
        #expect(abs(Self.secondsOnBC(usual) - 20) < 0.5, "\(Self.secondsOnBC(usual))")
        #expect(abs(Self.secondsOnBC(slowed) - 80) < 0.5, "\(Self.secondsOnBC(slowed))")
        #expect(abs(usual.speedKmh(after: 10) - 36) < 0.1, "on A-B")
        #expect(abs(slowed.speedKmh(after: 10) - 36) < 0.1, "A-B is not slowed")
        #expect(abs(slowed.speedKmh(after: 18 + 40) - 9) < 0.1, "on B-C, a quarter of 36 km/h")
        #expect(abs(slowed.position(after: 18 + 40).coordinate.haversineDistance(to: Self.b.offset(eastMetres: 0, northMetres: 100))) < 0.5,
                "halfway through B-C's 80 s, halfway along it")
        #expect(abs(slowed.position(after: 18 + 40).heading) < 0.5, "heading north")
    }

    @Test func everyPositionIsOnTheRoute() {
        let drive = RoadDrive(router: Self.router(overhead: 30, factor: 0.5), from: Self.from, to: Self.to, depart: Self.depart, withPath: true)
        for elapsed in stride(from: 0.0, through: drive.durationSeconds + 5, by: 0.5) {
            let point = drive.position(after: elapsed).coordinate
            let off = min(Self.distance(point, toSegment: Self.from, Self.b), Self.distance(point, toSegment: Self.b, Self.c),
                          Self.distance(point, toSegment: Self.c, Self.to))
            #expect(off < 0.01, "\(elapsed) s after leaving, \(off) m off the route A-B-C-D")
        }
        #expect(drive.route?.stretches.map(\.edge).contains(Self.bc) == true)
    }

    @Test func theTripOverheadIsSpentStandingHalfAtEachEnd() {
        let drive = RoadDrive(router: Self.router(overhead: 30), from: Self.from, to: Self.to, depart: Self.depart, withPath: true)
        #expect(drive.standingSeconds == 30)
        #expect(abs(drive.durationSeconds - 86) < 0.01, "56 s driving and 30 s standing")
        for elapsed in [0.0, 7, 14.9] {
            #expect(drive.position(after: elapsed).coordinate == Self.from, "pulling out, \(elapsed) s")
            #expect(drive.speedKmh(after: elapsed) == 0)
        }
        #expect(drive.position(after: 15 + 9).coordinate.haversineDistance(to: Self.origin.offset(eastMetres: 110, northMetres: 0)) < 0.5,
                "9 s after setting off, 90 m further")
        #expect(drive.speedKmh(after: 15 + 9) > 30)
        for elapsed in [15 + 56.1, 80, 86, 100] {
            #expect(drive.position(after: elapsed).coordinate == Self.to, "finding the kerb, \(elapsed) s")
            #expect(drive.speedKmh(after: elapsed) == 0)
        }
    }

    @Test func aDriveTimedWithoutItsPathLastsAsLong() {
        let router = Self.router(overhead: 30, factor: 0.25)
        let timed = RoadDrive(router: router, from: Self.from, to: Self.to, depart: Self.depart)
        let followed = RoadDrive(router: router, from: Self.from, to: Self.to, depart: Self.depart, withPath: true)
        #expect(timed.route == nil)
        #expect(abs(timed.durationSeconds - followed.durationSeconds) < 0.01)
        #expect(timed.duration == .milliseconds(146_000))
    }

    @Test func aPairTheRouterCannotRouteIsDrivenInAStraightLine() {
        let far = Self.origin.offset(eastMetres: 0, northMetres: 5_000)
        let drive = RoadDrive(router: Self.router(overhead: 30), from: Self.from, to: far, depart: Self.depart, withPath: true)
        #expect(drive.route == nil)
        #expect(drive.standingSeconds == 0)
        #expect(abs(drive.durationSeconds - Self.from.haversineDistance(to: far) / RoadDrive.fallbackMetresPerSecond) < 0.001)
        let middle = drive.position(after: drive.durationSeconds / 2).coordinate
        #expect(abs(middle.haversineDistance(to: Self.from) - middle.haversineDistance(to: far)) < 1)
        #expect(abs(drive.speedKmh(after: 1) - RoadDrive.fallbackMetresPerSecond * 3.6) < 0.01)
    }
}
