import Foundation

/// What a zone's latest rides showed about waiting for a taxi there (SPEC
/// D9): the wait a passenger is told is checked against the waits that
/// happened, so that a systematic error (drivers who take their time to
/// answer, a queue that moves faster than its arrival rate says) is
/// learned instead of told again and again.
///
/// Each figure is a recent-weighted mean of the zone's accepted offers
/// (``RecentAverage``): about the last twenty count, which at a few dozen
/// rides an hour follows the city's hours. Reservations are left out:
/// their taxi is allocated ahead, not waited for.
public struct ZoneWaitHistory: Equatable, Sendable, Codable {
    /// Seconds from a request to its accepted offer when a free taxi was
    /// waiting in the zone as it was made: the drivers' time to answer, and
    /// any refusals before a taxi took it.
    public internal(set) var freeTaxiDelay = RecentAverage()
    /// The time to an accepted offer of requests that had to wait for a
    /// taxi against what the passengers ahead over the zone's recent arrival
    /// rate of free taxis said, both in log seconds: long lines move faster
    /// than their rate says (passengers ahead give up), so the correction
    /// may grow with the expectation, though never past it.
    public internal(set) var queuedWaits = RecentLogRegression()
    /// The drive to the pickup told when an offer was accepted, seconds:
    /// what a request that waits for a taxi may expect once one is free.
    public internal(set) var driveToPickup = RecentAverage()

    /// Nothing seen yet.
    public init() {}

    /// Weight of evidence at which a zone's own history counts as much as
    /// the expectation it corrects (no delay, a queue moving at its rate).
    static let priorWeight = 1.0
    /// Weight of evidence at which a zone's own drivers' time to answer
    /// counts as much as the city's: a few rides, since the drivers and
    /// the offers' rules are the city's.
    static let cityPriorWeight = 3.0

    /// The time from request to an accepted offer with a free taxi in the
    /// zone: its own rides' delay, pulled toward the `city`'s where it has few.
    func expectedFreeTaxiDelay(city: ZoneWaitHistory) -> Duration {
        let cityDelay = city.freeTaxiDelay.mean(shrunkToward: 0, priorWeight: Self.priorWeight)
        return Self.duration(seconds: freeTaxiDelay.mean(shrunkToward: cityDelay, priorWeight: Self.cityPriorWeight))
    }

    /// `expected` (from the passengers ahead and the arrival rate) as the
    /// zone's queued requests fared against the same expectation.
    func correctedQueueWait(_ expected: Duration) -> Duration {
        let seconds = expected / .seconds(1)
        guard queuedWaits.weight > 0, seconds > 0 else { return expected }
        return Self.duration(seconds: exp(queuedWaits.predicted(at: log(seconds), priorWeight: Self.priorWeight)))
    }

    /// The drive to a pickup that recent accepted offers in the zone were told; nil before any.
    var typicalDriveToPickup: Duration? {
        driveToPickup.weight > 0 ? Self.duration(seconds: driveToPickup.sum / driveToPickup.weight) : nil
    }

    /// `seconds` to the millisecond, as every duration the engine keeps.
    private static func duration(seconds: Double) -> Duration {
        .milliseconds(Int64((seconds * 1000).rounded()))
    }

    /// Notes an accepted offer: `waited` from request to acceptance, against
    /// `expected` (zero when a taxi was free), and the drive told with it.
    mutating func noteAccepted(waited: Duration, expected: Duration, drive: Duration?) {
        let waitedSeconds = waited / .seconds(1), expectedSeconds = expected / .seconds(1)
        if expectedSeconds == 0 {
            freeTaxiDelay.add(waitedSeconds)
        } else if waitedSeconds > 0 {
            queuedWaits.add(x: log(expectedSeconds), y: log(waitedSeconds))
        }
        if let drive { driveToPickup.add(drive / .seconds(1)) }
    }
}

/// A mean in which each new value counts a little more than the ones
/// before it (each older value's weight is multiplied by ``decay``), so that
/// it follows a figure that drifts over the day.
public struct RecentAverage: Equatable, Sendable, Codable {
    /// How much of its weight a value keeps each time a newer one comes.
    public static let decay = 0.95
    /// The sum of the values' weights (at most 1 ÷ (1 − ``decay``), 20).
    public internal(set) var weight = 0.0
    /// The weighted sum of the values.
    public internal(set) var sum = 0.0

    /// No value yet.
    public init() {}

    /// Adds `value`, the older ones weighed down.
    mutating func add(_ value: Double) {
        weight = weight * Self.decay + 1
        sum = sum * Self.decay + value
    }

    /// The mean, pulled toward `prior` as if `priorWeight` values of it had been seen too.
    func mean(shrunkToward prior: Double, priorWeight: Double) -> Double {
        (sum + priorWeight * prior) / (weight + priorWeight)
    }
}


/// A straight line through recent (x, y) points, each newer point counting
/// a little more (as ``RecentAverage``), pulled toward y = x where the
/// points are few or close together, so that with little evidence the
/// expectation stands; its slope stays within 0...1.
public struct RecentLogRegression: Equatable, Sendable, Codable {
    /// The sum of the points' weights.
    public internal(set) var weight = 0.0
    var sumX = 0.0, sumY = 0.0, sumXX = 0.0, sumXY = 0.0

    /// No point yet.
    public init() {}

    /// The spread of x that counts as much as the prior slope of 1.
    static let priorSpread = 1.0

    /// Adds the point (`x`, `y`), the older ones weighed down.
    mutating func add(x: Double, y: Double) {
        let decay = RecentAverage.decay
        weight = weight * decay + 1
        sumX = sumX * decay + x
        sumY = sumY * decay + y
        sumXX = sumXX * decay + x * x
        sumXY = sumXY * decay + x * y
    }

    /// y at `x` on the line through the points' means: its offset from
    /// y = x shrunk as if `priorWeight` points lay on y = x, its slope
    /// shrunk toward 1 as if they lay ``priorSpread`` apart.
    func predicted(at x: Double, priorWeight: Double) -> Double {
        guard weight > 0 else { return x }
        let meanX = sumX / weight, meanY = sumY / weight
        let spreadXX = max(sumXX - weight * meanX * meanX, 0)
        let spreadXY = sumXY - weight * meanX * meanY
        let offset = (meanY - meanX) * weight / (weight + priorWeight)
        let slope = 1 + (spreadXY - spreadXX) / (spreadXX + priorWeight * Self.priorSpread * Self.priorSpread)
        return x + offset + (min(max(slope, 0), 1) - 1) * (x - meanX)
    }
}
