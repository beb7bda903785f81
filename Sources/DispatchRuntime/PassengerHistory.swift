import DispatchCore
import Storage

/// A passenger's history as the passenger app shows it (SPEC D8).
public struct PassengerHistory: Sendable, Equatable {
    /// Reservations still to come, soonest first.
    public let upcoming: [Reservation]
    /// Rides and bookings that ended in the period asked for, most recent first.
    public let past: [RideHistoryRecord]
}
