import Foundation
import GeoKit

/// A route driven edge by edge at the speeds of its departure: where the
/// vehicle is at any moment, each edge taking its own time. What a
/// simulated taxi follows, so that a slow avenue shows in its fixes as a
/// slow avenue, not as a slower whole trip.
public struct TimedRoute: Sendable {
    /// One stretch of the route: the part of an edge driven, from `start` to `end` (seconds after leaving).
    public struct Stretch: Sendable, Equatable {
        public var edge: Int
        /// The fraction of the edge driven.
        public var share: Double
        public var from: Coordinate
        public var to: Coordinate
        public var start: Double
        public var end: Double
    }

    /// The stretches in driving order.
    public let stretches: [Stretch]

    /// Seconds from leaving to arriving.
    public var durationSeconds: Double { stretches.last?.end ?? 0 }

    /// The same route with the stretches not yet finished `elapsed` seconds
    /// after leaving timed again from edge `weights` (ms, a metric's
    /// ``CCHMetric/edgeWeights``): what a vehicle already on its way meets
    /// when the speeds change under it (an accident ahead).
    public func retimed(after elapsed: Double, weights: [UInt32]) -> TimedRoute {
        var clock = 0.0
        var retimed: [Stretch] = []
        for stretch in stretches {
            var timed = stretch
            let seconds = Double(weights[stretch.edge]) / 1000 * stretch.share
            if stretch.end <= elapsed {
                clock = stretch.end
            } else if stretch.start < elapsed {
                // Under way: the part left at the new speed, the part done where it was.
                let done = (elapsed - stretch.start) / (stretch.end - stretch.start)
                timed.end = elapsed + seconds * (1 - done)
                timed.start = timed.end - seconds
                clock = timed.end
            } else {
                timed.start = clock
                timed.end = clock + seconds
                clock = timed.end
            }
            retimed.append(timed)
        }
        return TimedRoute(stretches: retimed)
    }

    /// The stretch being driven `elapsed` seconds after leaving (the last
    /// once arrived, the first before leaving); nil for a route of no stretch.
    public func stretch(after elapsed: Double) -> Stretch? {
        guard let last = stretches.last else { return nil }
        guard elapsed < last.end else { return last }
        var low = 0, high = stretches.count - 1
        while low < high {
            let middle = (low + high) / 2
            if stretches[middle].end <= elapsed { low = middle + 1 } else { high = middle }
        }
        return stretches[low]
    }

    /// Where the vehicle is `elapsed` seconds after leaving (the end once arrived), and the edge it is on.
    public func position(after elapsed: Double) -> (coordinate: Coordinate, edge: Int?) {
        guard let stretch = stretch(after: elapsed) else { return (Coordinate(longitude: 0, latitude: 0), nil) }
        let span = stretch.end - stretch.start
        let share = span > 0 ? min(max((elapsed - stretch.start) / span, 0), 1) : 1
        return (Coordinate(longitude: stretch.from.longitude + (stretch.to.longitude - stretch.from.longitude) * share,
                           latitude: stretch.from.latitude + (stretch.to.latitude - stretch.from.latitude) * share),
                stretch.edge)
    }
}

extension RoadRouter {
    /// The fastest route from `source` to `target` leaving at `depart`,
    /// with the time of each edge at that departure's speeds (no trip overhead).
    /// - Throws: ``SnapError`` when either end is too far from a road,
    ///   ``RouteError/noRoute`` when no path exists.
    public func timedRoute(from source: Coordinate, to target: Coordinate, depart: Date) throws -> TimedRoute {
        let driven = try drivenEdges(from: source, to: target, depart: depart)
        let weights = metric(departing: depart).edgeWeights
        let tails = snapper.edgeTail
        var stretches: [TimedRoute.Stretch] = []
        var clock = 0.0
        for (index, part) in driven.enumerated() {
            let tail = graph.coordinates[Int(tails[part.edge])], head = graph.coordinates[Int(graph.edgeHead[part.edge])]
            // The first edge is driven from inside it to its head, the last from its tail to inside
            // it; a drive along one edge only, straight between the two points.
            let from = driven.count == 1 ? source : index == 0 ? Self.interpolate(tail, head, 1 - part.share) : tail
            let to = driven.count == 1 ? target : index == driven.count - 1 ? Self.interpolate(tail, head, part.share) : head
            let seconds = Double(weights[part.edge]) / 1000 * part.share
            stretches.append(TimedRoute.Stretch(edge: part.edge, share: part.share, from: from, to: to, start: clock, end: clock + seconds))
            clock += seconds
        }
        return TimedRoute(stretches: stretches)
    }

    private static func interpolate(_ a: Coordinate, _ b: Coordinate, _ share: Double) -> Coordinate {
        Coordinate(longitude: a.longitude + (b.longitude - a.longitude) * share,
                   latitude: a.latitude + (b.latitude - a.latitude) * share)
    }
}
