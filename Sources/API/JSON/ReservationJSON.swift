import DispatchCore
import FixRecords
import Foundation
import Ingest
import Zones

/// A reservation as the API shows it to its passenger and the dispatchers (SPEC D5).
struct ReservationJSON: Codable, Equatable, Sendable {
    /// `V` and the engine's number, e.g. `V3`.
    var reservationId: String
    /// Whose it is: the passenger's username, or `phone:` and the number of a dispatcher's caller.
    var passengerId: String
    /// The party's size, the seats its taxi must have.
    var seats: Int
    /// `booked`, `awaitingTaxi` (its allocation time came, no free taxi yet), `allocated`.
    var status: String
    var zoneId: String
    /// Where the passenger is picked up, named as a ride's pickup is.
    var pickup: PointJSON
    /// The same, by its older name, for the clients that read it.
    var origin: PointJSON
    var destination: PointJSON
    /// ISO 8601.
    var pickupAt: String
    /// The allocated taxi's code.
    var taxiId: String?
    /// The ride that serves it, once allocated.
    var rideId: String?
    /// When no taxi can stop where the passenger asked: `pickup` is the
    /// meeting point the taxi comes to, and this the passenger's walk there.
    var meetingPoint: MeetingPointJSON?
    /// The address the pickup was understood as, in the answer to a booking that named one.
    var pickupAddress: String?
    /// The address the destination was understood as, likewise.
    var destinationAddress: String?

    /// The JSON of `reservation`.
    init(_ reservation: Reservation) {
        reservationId = reservation.id.description
        passengerId = reservation.passenger.text
        seats = reservation.seats
        zoneId = reservation.zone.text
        pickup = PointJSON(reservation.origin)
        origin = pickup
        destination = PointJSON(reservation.destination)
        pickupAt = FixTime.iso8601(reservation.pickupAt)
        meetingPoint = reservation.walk.map { MeetingPointJSON(stop: reservation.origin, walk: $0) }
        switch reservation.phase {
        case .booked: status = "booked"
        case .awaitingTaxi: status = "awaitingTaxi"
        case .allocated(let taxi, let ride):
            status = "allocated"
            taxiId = taxi.text
            rideId = ride.description
        }
    }
}
