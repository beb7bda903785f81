import Foundation
import GeoKit
import Routing

/// One simulated taxi of a learning run: parked for a few minutes, then a
/// trip to a random place: pulling out, the drive edge by edge at the true
/// speeds of its departure, finding the kerb; parked again.
struct LearningTaxi {
    /// Where it is parked, or where its trip started.
    private(set) var position: Coordinate
    private var route: TimedRoute?
    private var tripStart = 0.0
    private var driveStart = 0.0
    private var tripEnd = 0.0
    private(set) var parkedUntil: Double
    private var destination: Coordinate

    init(position: Coordinate, parkedUntil: Double) {
        self.position = position
        self.parkedUntil = parkedUntil
        destination = position
    }

    /// A finished trip: from, to, when it started (run seconds) and how long it took.
    struct Trip {
        var from: Coordinate
        var to: Coordinate
        var start: Double
        var seconds: Double
    }

    /// Moves the taxi's story on to `seconds`, starting trips with `startTrip`
    /// (given where from and when, it returns the route and the pull-out time);
    /// returns the trips finished on the way.
    mutating func advance(to seconds: Double, parking: () -> Double, startTrip: (Coordinate, Double) -> (TimedRoute, Double)?)
        -> [Trip] {
        var finished: [Trip] = []
        while true {
            if route != nil {
                guard seconds >= tripEnd else { return finished }
                finished.append(Trip(from: position, to: destination, start: tripStart, seconds: tripEnd - tripStart))
                position = destination
                route = nil
                parkedUntil = tripEnd + parking()
            } else {
                guard seconds >= parkedUntil else { return finished }
                guard let (next, overhead) = startTrip(position, parkedUntil) else {
                    parkedUntil += parking()
                    continue
                }
                route = next
                tripStart = parkedUntil
                driveStart = parkedUntil + overhead / 2
                tripEnd = driveStart + next.durationSeconds + overhead / 2
                destination = next.position(after: .infinity).coordinate
            }
        }
    }

    /// Times the rest of the drive under way at `seconds` again from edge
    /// `weights` (the true speeds changed: an incident started or ended).
    mutating func retime(at seconds: Double, weights: [UInt32]) {
        guard let route, seconds < tripEnd, seconds > driveStart else { return }
        let retimed = route.retimed(after: seconds - driveStart, weights: weights)
        tripEnd += retimed.durationSeconds - route.durationSeconds
        self.route = retimed
    }

    /// Whether the taxi is free, parked between trips (as a dispatcher knows of a taxi in a rank's queue).
    var isParked: Bool { route == nil }

    /// Where the taxi is at `seconds` (after ``advance(to:parking:startTrip:)`` to then).
    func place(at seconds: Double) -> Coordinate {
        guard let route else { return position }
        if seconds < driveStart { return route.position(after: 0).coordinate }
        return route.position(after: seconds - driveStart).coordinate
    }
}
