import DispatchCore
import FixRecords
import Foundation
import JSONKit
import Zones

/// Who hears of what the engine decided (SPEC D7), and in which words.
///
/// Every event becomes a ``Notice`` for the dispatchers' live board; the
/// ones that concern a driver or a passenger are also stored for them:
///
/// | kind | told to |
/// | --- | --- |
/// | `offer` (ride, pickup, destination, expiresAt) | the driver offered it; the passenger |
/// | `offer_timed_out`, `offer_withdrawn` | the driver |
/// | `taxi_assigned` (taxi code, etaS) | the passenger |
/// | `queued` (zone, queuePosition, confirmBy) | the passenger |
/// | `taxi_joined_queue` (zone, queuePosition) | the driver |
/// | `eta_changed`, `taxi_arrived`, `ride_completed`, `client_missing` | the passenger |
/// | `ride_cancelled` (reason) | the passenger; the driver sent for it |
/// | `reservation_allocated` (taxi, ride, pickupAt, pickup) | the passenger and the driver |
/// | `reservation_awaiting_taxi` | the passenger |
///
/// The rest (`driver_state`, `taxi_changed_zone`, `taxi_left_queue`,
/// `request_opened`, `request_refused`, `offer_refused`,
/// `request_confirmed`, `passenger_aboard`, `reservation_made`,
/// `reservation_cancelled`) go to the board only: the user who caused them
/// has the API's answer. A phone caller has no account, so nothing is
/// stored for one.
public enum DispatchNotices {
    /// The recipient a passenger's notifications are stored for; nil for a
    /// phone caller (`phone:...`), who has no account to fetch them with.
    public static func recipient(passenger: PassengerID) -> String? {
        passenger.text.utf8.contains(UInt8(ascii: ":")) ? nil : "passenger:" + passenger.text
    }

    /// The recipient a driver's notifications are stored for.
    public static func recipient(taxi: TaxiID) -> String {
        "taxi:" + taxi.text
    }

    /// What the notices of one command know besides its events: the
    /// requests and reservations they name (open, or closed by the
    /// command), and the engine and wall time it ran at.
    struct Context: Sendable {
        let requests: [RideRequestID: RideRequest]
        let reservations: [ReservationID: Reservation]
        let engineTime: Duration
        let wall: Date
        /// The router's ETA of each ride a reservation was just given, to
        /// its pickup: the reminder tells the passenger (D5). Known where
        /// the command was decided, not where the log is replayed.
        let allocationETAs: [RideRequestID: Duration]

        /// What the notices of `events` need to know of the engine's state
        /// `snapshot` and of what the command closed, taken on the
        /// dispatcher so that the notices can be written on the log's thread.
        init(
            events: [DispatchEvent], snapshot: DispatchSnapshot, closed: (requests: [RideRequest], reservations: [Reservation]),
            engineTime: Duration, wall: Date, allocationETAs: [RideRequestID: Duration] = [:]
        ) {
            var requests: [RideRequestID: RideRequest] = [:]
            var reservations: [ReservationID: Reservation] = [:]
            for request in closed.requests { requests[request.id] = request }
            for reservation in closed.reservations { reservations[reservation.id] = reservation }
            for event in events {
                if let id = event.request, requests[id] == nil { requests[id] = snapshot.requests[id] }
                if case .itineraryChanged(_, let stops) = event {
                    for stop in stops where requests[stop.ride] == nil { requests[stop.ride] = snapshot.requests[stop.ride] }
                }
                if let id = event.reservation, reservations[id] == nil { reservations[id] = snapshot.reservations[id] }
            }
            self.requests = requests
            self.reservations = reservations
            self.engineTime = engineTime
            self.wall = wall
            self.allocationETAs = allocationETAs
        }

        func request(_ id: RideRequestID) -> RideRequest? { requests[id] }

        func reservation(_ id: ReservationID) -> Reservation? { reservations[id] }

        /// The wall-clock time of engine time `deadline`.
        func wall(at deadline: Duration) -> Date {
            wall.addingTimeInterval((deadline - engineTime) / .seconds(1))
        }
    }

    /// The notice of `event` and the recipients it is stored for.
    static func notice(of event: DispatchEvent, in context: Context) -> (notice: Notice, recipients: [String]) {
        var notice = Notice(kind: "", at: context.wall)
        var recipients: [String] = []
        func ride(_ id: RideRequestID, tellingPassenger: Bool) {
            notice.rideId = id.description
            guard let request = context.request(id) else { return }
            notice.passengerId = request.passenger.text
            notice.zoneId = request.zone.text
            if tellingPassenger, let passenger = recipient(passenger: request.passenger) { recipients.append(passenger) }
        }
        switch event {
        case .driverStateChanged(let taxi, _, let to):
            notice.kind = "driver_state"
            notice.taxiId = taxi.text
            notice.state = DriverStateText.text(to)
        case .taxiChangedZone(let taxi, let from, let to):
            notice.kind = "taxi_changed_zone"
            notice.taxiId = taxi.text
            notice.fromZoneId = from?.text
            notice.zoneId = to?.text
        case .taxiJoinedQueue(let taxi, let zone, let position):
            notice.kind = "taxi_joined_queue"
            notice.taxiId = taxi.text
            notice.zoneId = zone.text
            notice.queuePosition = position
            recipients.append(recipient(taxi: taxi))
        case .taxiLeftQueue(let taxi, let zone):
            notice.kind = "taxi_left_queue"
            notice.taxiId = taxi.text
            notice.zoneId = zone.text
        case .requestOpened(let id, _, _):
            notice.kind = "request_opened"
            ride(id, tellingPassenger: false)
            notice.pickup = context.request(id).map { NoticePoint($0.pickup) }
        case .requestRefused(let passenger, let reason):
            notice.kind = "request_refused"
            notice.passengerId = passenger.text
            notice.reason = reason.description
        case .offerMade(let id, let taxi, let expiresAt):
            notice.kind = "offer"
            ride(id, tellingPassenger: true)
            notice.taxiId = taxi.text
            notice.expiresAt = context.wall(at: expiresAt)
            if let request = context.request(id) {
                notice.pickup = NoticePoint(request.pickup)
                notice.destination = request.destination.map(NoticePoint.init)
            }
            recipients.append(recipient(taxi: taxi))
        case .offerAccepted(let id, let taxi, let eta), .riderJoined(let id, let taxi, let eta):
            // A shared rider who joins a taxi hears of it as any passenger whose offer was accepted.
            notice.kind = "taxi_assigned"
            ride(id, tellingPassenger: true)
            notice.taxiId = taxi.text
            notice.etaS = eta.map(JSONWriter.roundedSeconds)
        case .offerRefused(let id, let taxi):
            notice.kind = "offer_refused"
            ride(id, tellingPassenger: false)
            notice.taxiId = taxi.text
        case .offerTimedOut(let id, let taxi), .offerWithdrawn(let id, let taxi):
            if case .offerTimedOut = event { notice.kind = "offer_timed_out" } else { notice.kind = "offer_withdrawn" }
            ride(id, tellingPassenger: false)
            notice.taxiId = taxi.text
            recipients.append(recipient(taxi: taxi))
        case .passengerQueued(let id, let zone, let position, let confirmBy):
            notice.kind = "queued"
            ride(id, tellingPassenger: true)
            notice.zoneId = zone.text
            notice.queuePosition = position
            notice.confirmBy = confirmBy.map(context.wall(at:))
        case .requestConfirmed(let id):
            notice.kind = "request_confirmed"
            ride(id, tellingPassenger: false)
        case .requestCancelled(let id, let reason):
            notice.kind = "ride_cancelled"
            ride(id, tellingPassenger: true)
            notice.reason = reason.noticeText
            if let request = context.request(id), let taxi = request.phase.taxi {
                notice.taxiId = taxi.text
                // A driver only offered the ride hears of it as a withdrawn offer.
                if case .offered = request.phase {} else { recipients.append(recipient(taxi: taxi)) }
            }
        case .taxiArrived(let id, let taxi), .passengerAboard(let id, let taxi), .rideCompleted(let id, let taxi),
            .clientMissing(let id, let taxi):
            switch event {
            case .taxiArrived: notice.kind = "taxi_arrived"
            case .passengerAboard: notice.kind = "passenger_aboard"
            case .rideCompleted: notice.kind = "ride_completed"
            default: notice.kind = "client_missing"
            }
            ride(id, tellingPassenger: true)
            notice.taxiId = taxi.text
        case .itineraryChanged(let taxi, let stops):
            notice.kind = "itinerary"
            notice.taxiId = taxi.text
            notice.stops = stops.compactMap { stop in
                context.request(stop.ride).map { request in
                    NoticeStop(
                        rideId: stop.ride.description, stop: stop.kind.rawValue,
                        point: NoticePoint(request.place(of: stop.kind) ?? request.pickup))
                }
            }
            recipients.append(recipient(taxi: taxi))
        case .etaChanged(let id, let taxi, let eta):
            notice.kind = "eta_changed"
            ride(id, tellingPassenger: true)
            notice.taxiId = taxi.text
            notice.etaS = JSONWriter.roundedSeconds(eta)
        case .reservationMade(let id, let passenger, let pickupAt):
            notice.kind = "reservation_made"
            notice.reservationId = id.description
            notice.passengerId = passenger.text
            notice.pickupAt = pickupAt
        case .reservationCancelled(let id, let reason):
            notice.kind = "reservation_cancelled"
            notice.reservationId = id.description
            notice.reason = reason.noticeText
            if let reservation = context.reservation(id) {
                notice.passengerId = reservation.passenger.text
                // The passenger who cancelled knows; one whose origin a new zone set left out must be told.
                if reason != .byPassenger { recipients += recipient(passenger: reservation.passenger).map { [$0] } ?? [] }
            }
        case .reservationAwaitingTaxi(let id, let zone):
            notice.kind = "reservation_awaiting_taxi"
            notice.reservationId = id.description
            notice.zoneId = zone.text
            if let reservation = context.reservation(id) {
                notice.passengerId = reservation.passenger.text
                recipients += recipient(passenger: reservation.passenger).map { [$0] } ?? []
            }
        case .reservationAllocated(let id, let taxi, let rideID):
            notice.kind = "reservation_allocated"
            notice.reservationId = id.description
            notice.taxiId = taxi.text
            notice.etaS = context.allocationETAs[rideID].map(JSONWriter.roundedSeconds)
            ride(rideID, tellingPassenger: true)
            if let reservation = context.reservation(id) {
                notice.pickupAt = reservation.pickupAt
                notice.pickup = NoticePoint(reservation.origin)
                notice.destination = NoticePoint(reservation.destination)
            }
            recipients.append(recipient(taxi: taxi))
        }
        assert(recipients.isEmpty || event.mayConcernAUser, "\(notice.kind) is stored for users but listed as the board's only")
        return (notice, recipients)
    }
}

extension DispatchEvent {
    /// Whether the event's notice may be stored for a driver or a passenger
    /// (the table of ``DispatchNotices``); the others go to the board only,
    /// and the log's writer does not work out their notices.
    var mayConcernAUser: Bool {
        switch self {
        case .taxiJoinedQueue, .offerMade, .offerAccepted, .offerTimedOut, .offerWithdrawn, .passengerQueued, .requestCancelled,
            .taxiArrived, .passengerAboard, .rideCompleted, .clientMissing, .etaChanged, .reservationCancelled,
            .reservationAwaitingTaxi, .reservationAllocated, .riderJoined, .itineraryChanged:
            true
        case .driverStateChanged, .taxiChangedZone, .taxiLeftQueue, .requestOpened, .requestRefused, .offerRefused,
            .requestConfirmed, .reservationMade:
            false
        }
    }

    /// The ride request the event is about, if any.
    fileprivate var request: RideRequestID? {
        switch self {
        case .requestOpened(let id, _, _), .offerMade(let id, _, _), .offerAccepted(let id, _, _), .offerRefused(let id, _),
            .offerTimedOut(let id, _), .offerWithdrawn(let id, _), .passengerQueued(let id, _, _, _), .requestConfirmed(let id),
            .requestCancelled(let id, _), .taxiArrived(let id, _), .passengerAboard(let id, _), .rideCompleted(let id, _),
            .clientMissing(let id, _), .etaChanged(let id, _, _), .reservationAllocated(_, _, let id), .riderJoined(let id, _, _):
            id
        case .driverStateChanged, .taxiChangedZone, .taxiJoinedQueue, .taxiLeftQueue, .requestRefused, .reservationMade,
            .reservationCancelled, .reservationAwaitingTaxi, .itineraryChanged:
            nil
        }
    }

    /// The reservation the event is about, if any.
    fileprivate var reservation: ReservationID? {
        switch self {
        case .reservationMade(let id, _, _), .reservationCancelled(let id, _), .reservationAwaitingTaxi(let id, _),
            .reservationAllocated(let id, _, _):
            id
        default: nil
        }
    }
}

extension CancellationReason {
    /// The reason as notices give it.
    var noticeText: String {
        switch self {
        case .byPassenger: "by_passenger"
        case .notConfirmed: "not_confirmed"
        case .outsideZones: "outside_zones"
        }
    }
}
