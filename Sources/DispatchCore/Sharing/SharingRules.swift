/// The bounds a shared ride keeps for every passenger in it (SPEC D10;
/// seed 001 §3.2.7): a new rider joins a taxi only when no one aboard or
/// waiting is delayed beyond them and the seats fit.
public struct SharingRules: Equatable, Sendable, Codable {
    /// The most a rider's time in the taxi may exceed the direct trip, as a
    /// share of the direct trip (0.5: a 20-minute trip may take 30).
    public var maximumDetourShare: Double
    /// The most a rider's time in the taxi may exceed the direct trip, however long the trip.
    public var maximumDetour: Duration
    /// The longest a rider may wait from the request to the pickup.
    public var maximumWait: Duration

    /// How much longer than a taxi of its own a rider may be made to wait
    /// by joining a shared ride: beyond it, the rider is served alone.
    public var longerWaitToShare: Duration

    /// Bounds of 50 % of the direct trip and at most 10 minutes of detour,
    /// and 10 minutes of waiting, and at most 2 minutes' longer wait than
    /// alone, unless told otherwise.
    public init(
        maximumDetourShare: Double = 0.5, maximumDetour: Duration = .seconds(600), maximumWait: Duration = .seconds(600),
        longerWaitToShare: Duration = .seconds(120)
    ) {
        self.maximumDetourShare = maximumDetourShare
        self.maximumDetour = maximumDetour
        self.maximumWait = maximumWait
        self.longerWaitToShare = longerWaitToShare
    }

    /// Whether a rider picked up in `sharedPickupIn` by a taxi on a shared
    /// ride should take it rather than wait `aloneIn` for a taxi of its own
    /// (nil: no estimate, so the shared ride, which is known).
    public func joins(sharedPickupIn: Duration, aloneIn: Duration?) -> Bool {
        aloneIn.map { sharedPickupIn <= $0 + longerWaitToShare } ?? true
    }

    /// The longest a rider whose direct trip takes `direct` may spend in the taxi.
    public func longestRide(direct: Duration) -> Duration {
        direct + min(direct * maximumDetourShare, maximumDetour)
    }
}
