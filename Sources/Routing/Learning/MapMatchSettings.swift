/// How fixes are matched to the roads (``FleetMatcher``): the GPS error
/// expected, how far a drive may stray from a straight line, and which
/// pairs of fixes say nothing about traffic.
public struct MapMatchSettings: Sendable, Equatable {
    /// The standard deviation of a fix's distance from the road the taxi is
    /// on, metres: city GPS is often 10-30 m off.
    public var gpsSigmaMetres = 15.0
    /// How much longer than the straight line between two fixes a likely
    /// drive is, metres: the scale of the exponential transition score of
    /// Newson and Krumm. Blocks of a grid city add a few hundred at most.
    public var transitionScaleMetres = 120.0
    /// Roads farther than this from a fix are not candidates; a fix with
    /// none is off the roads (a parking lot, a ferry, a GPS jump).
    public var candidateRadiusMetres = 50.0
    /// At most this many roads per fix, nearest first.
    public var maxCandidates = 8
    /// Two fixes closer than this, in a straight line, are a taxi standing
    /// (at a rank, waiting for a client, or GPS jitter around a parked car):
    /// not a drive.
    public var standingMetres = 40.0
    /// Fixes closer in time than this are not compared (a burst after a gap).
    public var minIntervalSeconds = 10.0
    /// Fixes farther apart in time than this are not compared (the terminal
    /// was silent: the drive between them is anyone's guess).
    public var maxIntervalSeconds = 95.0
    /// No drive between two fixes is faster than this, metres per second
    /// (144 km/h); a candidate pair that needs more is impossible.
    public var maxSpeedMetresPerSecond = 40.0

    /// The defaults above.
    public init() {}
}
