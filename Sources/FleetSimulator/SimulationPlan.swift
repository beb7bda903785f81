import Foundation
import GeoKit
import Routing
import Zones

/// What a seed decides of a run, before any service answers: each taxi's
/// start and the fixes its terminal sends while it is never given a ride
/// (parking, cruising to where passengers ask, GPS errors and gaps), and
/// the passengers' requests (who asks when, from where to where, for a
/// ride now or a booking, and who cancels). The same settings, seed and
/// start give the same plan, byte for byte; a live run follows it, and
/// departs from it only where the service's answers (offers, rides, the
/// timing of its replies) take a taxi elsewhere.
public struct SimulationPlan: Sendable {
    /// One taxi's part of the plan.
    public struct TaxiPlan: Sendable, Equatable {
        /// The taxi id (`TX000001`...).
        public var taxiId: String
        /// Its terminal's protocol.
        public var kind: TerminalKind
        /// Where it starts.
        public var start: Coordinate
        /// Its terminal's fixes while it is given no ride, in order; nil where a fix falls in a GPS gap.
        public var fixes: [TerminalFix?]
    }

    /// The simulated time the run starts at.
    public let start: Date
    /// Every taxi's part.
    public let taxis: [TaxiPlan]
    /// The passengers' requests, in order of time.
    public let requests: [PlannedRequest]

    /// The plan of a run with `settings` starting at simulated time `start`
    /// on `router`'s roads inside `zones`, with pickups and destinations
    /// from `demandCSV` (NYC TLC columns) when given.
    /// - Throws: ``SimulatorError`` when the graph has no road in a zone or the demand file has no usable trip.
    public init(router: RoadRouter, zones: ZoneIndex, settings: SimulatorSettings, start: Date, demandCSV: String? = nil) throws {
        let trips = try SimulationTrips(router: router, zones: zones, demandCSV: demandCSV)
        let length = settings.hours * 3600
        self.start = start
        taxis = (0..<settings.taxis).map { index in
            var course = TaxiCourse(index: index, settings: settings, trips: trips)
            let origin = course.position
            var fixes: [TerminalFix?] = []
            while true {
                let move = course.driveEnd ?? course.parkedUntil
                guard min(course.nextFix, move) < length else { break }
                if course.nextFix <= move {
                    fixes.append(course.takeFix(date: start.addingTimeInterval(course.nextFix)))
                } else if let end = course.driveEnd {
                    course.park(at: end, minimum: 120, spread: 600)
                } else {
                    course.cruise(trips: trips, router: router) { start.addingTimeInterval($0) }
                }
            }
            return TaxiPlan(taxiId: TerminalKind.taxiId(index), kind: TerminalKind.of(taxi: index), start: origin, fixes: fixes)
        }
        var arrivals = PassengerArrivals(settings: settings, trips: trips)
        var requests: [PlannedRequest] = []
        while let request = arrivals.next(), request.atSeconds < length { requests.append(request) }
        self.requests = requests
    }

    /// The plan as text, a line per taxi, fix and request: times in ISO
    /// 8601 UTC, places as `lon,lat` to 6 decimals (about 10 cm).
    public var text: String {
        var lines = ["start \(Self.iso(start))"]
        for taxi in taxis {
            lines.append("taxi \(taxi.taxiId) \(taxi.kind.rawValue) starts at \(Self.place(taxi.start))")
            for (number, fix) in taxi.fixes.enumerated() {
                guard let fix else {
                    lines.append("fix \(taxi.taxiId) #\(number + 1) gap")
                    continue
                }
                lines.append(
                    "fix \(taxi.taxiId) #\(number + 1) \(Self.iso(fix.time)) \(Self.place(fix.coordinate)) "
                        + String(format: "%.1f km/h, heading %.0f", fix.speedKmh, fix.heading))
            }
        }
        for request in requests {
            var line = "request \(Self.iso(start.addingTimeInterval(request.atSeconds))) \(SimulatedPassengers.username(request.passenger)) "
            if let ahead = request.reservationAheadSeconds {
                line += String(format: "books %.0f s ahead", ahead)
            } else {
                line += "asks for a ride"
            }
            line += " from \(Self.place(request.pickup)) to \(Self.place(request.destination))"
            if let cancels = request.cancelsAfterSeconds {
                line += request.reservationAheadSeconds == nil ? String(format: ", cancels after %.0f s", cancels) : ", cancels it"
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func iso(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }

    private static func place(_ coordinate: Coordinate) -> String {
        String(format: "%.6f,%.6f", coordinate.longitude, coordinate.latitude)
    }
}
