import Foundation
import GeoKit

/// Where a taxi meets a passenger who asked to be picked up off its roads
/// (SPEC R5): on a pedestrian street, in a park, in a station's concourse.
public struct MeetingPoint: Sendable, Equatable {
    /// The place on a road a taxi can stop at.
    public var stop: Coordinate
    /// The passenger's walk from where they asked to `stop`, seconds.
    public var walkSeconds: Double
    /// The walk's length, metres.
    public var walkMetres: Double
    /// True when the walk was routed on the walking graph; false when it is
    /// the straight line stretched by ``MeetingPoints/straightLineDetour``
    /// (the service has no walking graph, or it has no path there).
    public var walkRouted: Bool
}

/// Finds meeting points: for a pickup, the nearest place (by the walk to
/// it) where a taxi can stop, when no road a taxi may stop on passes
/// within ``kerbsideMetres`` of it.
///
/// A taxi can stop on any road of the car graph but motorways, trunk roads
/// and their links. The places looked at are the nearest point of each
/// such road within ``searchRadiusMetres``; each walk is routed on the
/// walking graph when the service has one, the nearest walk wins.
public struct MeetingPoints: Sendable {
    /// The taxis' router: the roads a taxi can reach.
    public let car: RoadRouter
    /// The walking router (`serve --foot-graph`), nil without one.
    public let foot: RoadRouter?

    /// A pickup this close to a road a taxi may stop on is served at the
    /// door: a phone's position on the pavement of a wide avenue lies about
    /// this far from the road's centre line.
    public static let kerbsideMetres = 25.0
    /// Roads farther than this from the pickup are not looked at: a walk
    /// out of the middle of a large park (Central Park is 800 m wide).
    public static let searchRadiusMetres = 500.0
    /// At most this many roads are looked at, nearest first.
    public static let maxCandidates = 8
    /// Walking speed where the walk is not routed, metres per second (the
    /// foot profile's 5 km/h).
    public static let walkingSpeedMetresPerSecond = FootProfile.walkingSpeedKmh / 3.6
    /// How much longer than the straight line a walk through city streets
    /// is, where it is not routed: the circuity of urban walking networks
    /// is about 1.2 to 1.3.
    public static let straightLineDetour = 1.25

    /// The meeting points of `car`'s taxis, walks routed on `foot` when given.
    public init(car: RoadRouter, foot: RoadRouter?) {
        self.car = car
        self.foot = foot
    }

    /// The meeting point for a pickup at `pickup`, leaving at `depart`; nil
    /// when a taxi can stop within ``kerbsideMetres`` (door to door).
    /// - Throws: ``SnapError/tooFarFromRoad(distanceMetres:limitMetres:swappedIsNear:)``
    ///   when no road lies within ``searchRadiusMetres``,
    ///   ``SnapError/noRoadToStopOn(withinMetres:)`` when only roads no taxi may stop on lie near.
    public func meetingPoint(for pickup: Coordinate, depart: Date) throws -> MeetingPoint? {
        if let kerb = car.snapper.candidatesIfNear(pickup, maxDistanceMetres: Self.kerbsideMetres, radiusMetres: 0, limit: 1)?.first,
           Self.taxiCanStop(on: car.graph.edgeRoadClass[kerb.edge]) {
            return nil
        }
        let stops = try stoppingPlaces(near: pickup)
        guard stops[0].distanceMetres > Self.kerbsideMetres else { return nil }
        return stops.map { walk(from: pickup, to: $0.point, depart: depart) }
            .min { ($0.walkSeconds, $0.walkMetres) < ($1.walkSeconds, $1.walkMetres) }
    }

    /// Whether a taxi may stop on `roadClass`: not on motorways, trunk roads and their links.
    public static func taxiCanStop(on roadClass: RoadClass) -> Bool {
        switch roadClass {
        case .motorway, .motorwayLink, .trunk, .trunkLink: false
        default: true
        }
    }

    /// The nearest point of each road near `pickup` a taxi can stop on, nearest first; never empty.
    private func stoppingPlaces(near pickup: Coordinate) throws -> [Snapper.Snap] {
        let near = try car.snapper.candidates(pickup, maxDistanceMetres: Self.searchRadiusMetres,
                                              radiusMetres: Self.searchRadiusMetres, limit: 4 * Self.maxCandidates)
        let stops = near.filter { Self.taxiCanStop(on: car.graph.edgeRoadClass[$0.edge]) }.prefix(Self.maxCandidates)
        guard stops.isEmpty else { return Array(stops) }
        throw SnapError.noRoadToStopOn(withinMetres: Self.searchRadiusMetres)
    }

    /// The walk from `pickup` to `stop`: routed on the walking graph (with
    /// the legs from each point to its path), or the stretched straight line.
    public func walk(from pickup: Coordinate, to stop: Coordinate, depart: Date) -> MeetingPoint {
        if let foot, let route = try? foot.route(from: pickup, to: stop, depart: depart) {
            let legs = route.sourceSnapMetres + route.targetSnapMetres
            return MeetingPoint(stop: stop, walkSeconds: route.durationSeconds + legs / Self.walkingSpeedMetresPerSecond,
                                walkMetres: route.distanceMetres + legs, walkRouted: true)
        }
        let metres = pickup.haversineDistance(to: stop) * Self.straightLineDetour
        return MeetingPoint(stop: stop, walkSeconds: metres / Self.walkingSpeedMetresPerSecond, walkMetres: metres, walkRouted: false)
    }
}
