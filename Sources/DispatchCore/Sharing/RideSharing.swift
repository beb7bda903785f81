import FixRecords

/// What makes a request a shared one (SPEC D10), as the dispatcher decided
/// it before the request reached the engine, and as the log keeps it: the
/// direct trip the rider's bounds follow from, and the taxi already on a
/// shared ride that takes the rider, if one could within every rider's
/// bounds. The engine decides nothing from travel times, so a replay gives
/// the same itineraries.
public struct RideSharing: Equatable, Sendable, Codable {
    /// The taxi a shared rider joins, and where the rider's two stops go in
    /// its itinerary.
    public struct Join: Equatable, Sendable, Codable {
        /// The taxi, on a shared ride.
        public let taxi: TaxiID
        /// The index of the rider's pickup in the itinerary with both new stops in it.
        public let pickupIndex: Int
        /// The index of the rider's drop-off in the same itinerary.
        public let dropoffIndex: Int
        /// The time until the taxi reaches the pickup, as planned; nil when unknown.
        public let eta: Duration?

        /// `taxi` takes the rider, with the pickup at `pickupIndex` and the
        /// drop-off at `dropoffIndex`, reaching the pickup in `eta`.
        public init(taxi: TaxiID, pickupIndex: Int, dropoffIndex: Int, eta: Duration?) {
            self.taxi = taxi
            self.pickupIndex = pickupIndex
            self.dropoffIndex = dropoffIndex
            self.eta = eta
        }
    }

    /// The driving time of the trip alone, from the pickup to the destination.
    public let directTrip: Duration
    /// The taxi the rider joins; nil: none could, and the request goes to
    /// its zone's queue, to be served alone and joined by later riders.
    public let join: Join?

    /// A shared request whose direct trip takes `directTrip`, joining `join`.
    public init(directTrip: Duration, join: Join? = nil) {
        self.directTrip = directTrip
        self.join = join
    }
}
