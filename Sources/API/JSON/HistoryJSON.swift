import FixRecords
import Ingest
import Storage

/// A ride or booking that ended, in a passenger's or driver's history (SPEC D8).
struct HistoryJSON: Codable, Equatable, Sendable {
    /// Always `ended`, to tell an ended ride from an open one where either
    /// may come (`GET /v1/rides/{rideId}`).
    var status = "ended"
    var rideId: String?
    var reservationId: String?
    var passengerId: String
    var taxiId: String?
    var pickup: PointJSON
    var destination: PointJSON?
    /// ISO 8601, a reservation's pickup time.
    var pickupAt: String?
    /// ISO 8601.
    var endedAt: String
    /// `completed`, `client_missing`, `cancelled`, `not_confirmed`, `reservation_cancelled`.
    var outcome: String

    /// The JSON of `record`.
    init(_ record: RideHistoryRecord) {
        rideId = record.ride
        reservationId = record.reservation
        passengerId = record.passenger
        taxiId = record.taxi
        pickup = PointJSON(record.pickup)
        destination = record.destination.map(PointJSON.init)
        pickupAt = record.pickupAt.map(FixTime.iso8601)
        endedAt = FixTime.iso8601(record.endedAt)
        outcome = record.outcome.rawValue
    }
}

/// `GET /v1/history`: a passenger's upcoming reservations, soonest first,
/// and what ended in the period, most recent first (SPEC D8).
struct PassengerHistoryJSON: Codable, Equatable, Sendable {
    var upcoming: [ReservationJSON]
    var past: [HistoryJSON]
}
