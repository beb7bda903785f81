import Foundation

/// What `mytaxi simulate` simulates: the fleet and the passengers, how
/// drivers and passengers behave, the terminals' GPS, how long and how fast
/// simulated time runs, and the seed every random choice comes from.
public struct SimulatorSettings: Sendable, Equatable {
    /// Taxis, each with a terminal and a driver's account.
    public var taxis: Int
    /// Passenger accounts requests are made from.
    public var passengers: Int
    /// Requests for a taxi now, per simulated hour (Poisson arrivals).
    public var requestsPerHour: Double
    /// The share of arrivals that book a reservation instead, 0...1.
    public var reservationShare = 0.05
    /// The share of offers drivers refuse, 0...1.
    public var refusalRate = 0.1
    /// The share of pickups where the passenger is not there, 0...1.
    public var missingRate = 0.03
    /// The share of requests and reservations cancelled by their passenger, 0...1.
    public var cancelRate = 0.05
    /// Standard deviation of the GPS error of each fix, metres.
    public var gpsNoiseMetres = 8.0
    /// The share of fixes a terminal never sends (tunnels, dead spots), 0...1.
    public var gapRate = 0.02
    /// Simulated seconds between two fixes of a terminal.
    public var fixIntervalSeconds = 30.0
    /// Simulated hours to run.
    public var hours: Double
    /// Simulated seconds per real second.
    public var speedUp = 1.0
    /// The hour of the day (0...23, in the road graph's time zone) the
    /// simulated time starts at, the latest one that lets the run end by
    /// the wall clock's time; nil: just so that it ends at it.
    public var startHour: Int?
    /// The seed of every random choice.
    public var seed: UInt64 = 1
    /// Real seconds between two progress lines.
    public var progressSeconds = 5.0
    /// Ride requests a burst sends at once (``FleetSimulation/burst()``),
    /// each by a passenger of its own, signed up at the start; 0: no burst.
    public var burstRequests = 0
    /// Whether to keep every fix the service acknowledged (its device and
    /// time), for a check of the archive; else they are only counted.
    public var keepsAcknowledgedFixes = false

    /// Settings for `taxis` taxis and `passengers` passengers asking
    /// `requestsPerHour` times an hour, for `hours` simulated hours.
    public init(taxis: Int, passengers: Int, requestsPerHour: Double, hours: Double) {
        self.taxis = taxis
        self.passengers = passengers
        self.requestsPerHour = requestsPerHour
        self.hours = hours
    }

    /// Every setting outside its range, in words (empty when all are fine).
    public var problems: [String] {
        var problems: [String] = []
        if !(0...100_000).contains(taxis) { problems.append("taxis must be from 0 to 100000, not \(taxis)") }
        if !(0...1_000_000).contains(passengers) { problems.append("passengers must be from 0 to 1000000, not \(passengers)") }
        if !(0...100_000).contains(burstRequests) { problems.append("a burst must be from 0 to 100000 requests, not \(burstRequests)") }
        if requestsPerHour > 0, passengers == 0 { problems.append("requests need at least one passenger") }
        let shares: [(String, Double)] = [
            ("reservation share", reservationShare), ("refusal rate", refusalRate), ("missing rate", missingRate),
            ("cancel rate", cancelRate), ("gap rate", gapRate),
        ]
        for (name, value) in shares where !(value.isFinite && (0...1).contains(value)) {
            problems.append("\(name) must be from 0 to 1, not \(value)")
        }
        let ranges: [(String, Double, Double, Double)] = [
            ("requests per hour", requestsPerHour, 0.0, 1_000_000.0), ("GPS noise", gpsNoiseMetres, 0, 1000),
            ("fix interval", fixIntervalSeconds, 1, 3600), ("hours", hours, 0.001, 24 * 7),
            ("speed-up", speedUp, 0.1, 1000), ("progress interval", progressSeconds, 0.1, 3600),
        ]
        if let startHour, !(0...23).contains(startHour) { problems.append("start hour must be from 0 to 23, not \(startHour)") }
        if speedUp > 0, hours * (1 - 1 / speedUp) + (startHour == nil ? 0 : 24) > 6 * 24 {
            problems.append(
                "\(hours) simulated hours at \(speedUp)x would start more than 6 days in the past, and the service refuses fixes older than 7 days; run fewer hours or faster")
        }
        for (name, value, low, high) in ranges where !(value.isFinite && (low...high).contains(value)) {
            problems.append("\(name) must be from \(low) to \(high), not \(value)")
        }
        return problems
    }
}
