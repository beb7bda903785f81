/// One passenger of a shared ride, as the itinerary's planning sees it:
/// the seats the party takes and the bounds its pickup and drop-off keep.
public struct SharedRider: Equatable, Sendable, Codable {
    /// The rider's ride request.
    public let ride: RideRequestID
    /// The seats the party takes.
    public let seats: Int
    /// The latest the taxi may pick the rider up (engine time): the request's
    /// time plus the longest wait; ignored once the rider is aboard.
    public let latestPickup: Duration
    /// The longest the rider may spend in the taxi: the direct trip plus the detour allowed.
    public let longestRide: Duration
    /// When the rider got in (engine time), nil while still waiting.
    public var pickedUpAt: Duration?
    /// The trip alone, which the rider's added delay is counted from.
    public let directTrip: Duration

    /// A rider of `seats` who asked at `requestedAt` for a trip of `direct`,
    /// bounded by `rules`.
    public init(ride: RideRequestID, seats: Int, requestedAt: Duration, direct: Duration, rules: SharingRules, pickedUpAt: Duration? = nil) {
        self.ride = ride
        self.seats = seats
        latestPickup = requestedAt + rules.maximumWait
        longestRide = rules.longestRide(direct: direct)
        directTrip = direct
        self.pickedUpAt = pickedUpAt
    }
}

/// One stop of a shared taxi's itinerary: a rider's pickup or drop-off at
/// one of the places the planning's travel times are known between.
public struct SharedStop: Hashable, Sendable, Codable {
    /// Whether the rider gets in or out.
    public enum Kind: String, Hashable, Sendable, Codable {
        case pickup
        case dropoff
    }

    /// Whose stop it is.
    public let ride: RideRequestID
    /// Getting in or out.
    public let kind: Kind
    /// The place, as an index into the places the travel times are given for.
    public let place: Int

    /// `ride`'s `kind` stop at `place`.
    public init(ride: RideRequestID, kind: Kind, place: Int) {
        self.ride = ride
        self.kind = kind
        self.place = place
    }
}
