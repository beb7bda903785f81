import DispatchCore
import DispatchRuntime
import FixRecords
import Foundation
import Hummingbird
import Ingest
import Routing
import ServiceClock
import Storage
import Zones

/// `/v1/reservations`: rides booked 2 to 48 hours ahead, cancellable until
/// an hour before the pickup (SPEC D5); a taxi is allocated 10 minutes
/// before it and the passenger is told its code and ETA. A passenger
/// books for itself; a dispatcher books for a phone caller (`callerPhone`)
/// and sees every booking.
struct ReservationsController: Sendable {
    let dispatcher: Dispatcher
    let zones: ActiveZones
    /// Where a taxi stops for a pickup it cannot reach exactly.
    let meetingPoints: MeetingPoints
    /// Turns typed addresses into points.
    let addresses: AddressResolver
    /// The most passengers any taxi carries (nil: no taxi registered).
    let largestSeats: @Sendable () -> Int?

    func addRoutes(to group: RouterGroup<APIRequestContext>) {
        group.post(use: reserve)
        group.get(use: list)
        group.get(":reservationId", use: show)
        group.delete(":reservationId", use: cancel)
    }

    /// `POST /v1/reservations` `{"pickup", "destination", "pickupAt", "callerPhone"?}` (`origin` read for `pickup`): 201 with the reservation.
    /// A pickup where no taxi can stop is booked at its meeting point, as a ride now is. The pickup and
    /// the destination are points or addresses; the answer echoes each address understood.
    @Sendable func reserve(_ request: Request, context: APIRequestContext) async throws -> Response {
        let caller = try context.requireCaller(in: [.passenger, .dispatcher])
        let body = try await request.decode(as: ReservationBody.self, context: context)
        let passenger = try PhoneCaller.passenger(for: caller, callerPhone: body.callerPhone)
        let seats = try PartySeats.checked(body.seats, largest: largestSeats())
        guard let pickup = body.pickup ?? body.origin else {
            throw Problem.badRequest("'pickup' is missing: where to pick the passenger up, {\"lon\": ..., \"lat\": ...} or {\"address\": \"...\"}")
        }
        let resolvedPickup = try addresses.resolve(pickup, field: body.pickup == nil ? "origin" : "pickup")
        let resolvedDestination = try addresses.resolve(body.destination, field: "destination", near: resolvedPickup.coordinate)
        let asked = resolvedPickup.coordinate, destination = resolvedDestination.coordinate
        guard let pickupAt = FixTime.date(iso8601: body.pickupAt) else {
            throw Problem.badRequest("'pickupAt' must be an ISO 8601 time, e.g. 2026-11-24T08:30:00-05:00")
        }
        var origin = asked, walk: PickupWalk?
        if zones.current.zone(at: asked) != nil {
            (origin, walk) = try meetingPoints.pickup(for: asked, depart: pickupAt)
        }
        let events = try await dispatcher.execute(.reserve(
            passenger, origin: origin, zone: zones.current.zone(at: origin)?.id, destination: destination, pickupAt: pickupAt,
            walk: walk, seats: seats), idempotencyKey: context.idempotencyKey)
        if case .requestRefused(_, let refusal) = events.first { throw Problem(refusal) }
        guard case .reservationMade(let id, _, _) = events.first, let reservation = await dispatcher.reservation(id) else {
            throw Problem.unavailable("the dispatcher did not book the reservation; try again")
        }
        var json = ReservationJSON(reservation)
        json.pickupAddress = resolvedPickup.understood
        json.destinationAddress = resolvedDestination.understood
        return try JSONResponse.created(json, location: "/v1/reservations/\(id)")
    }

    /// `GET /v1/reservations[?callerPhone=NUMBER]`: the passenger's open
    /// reservations, soonest first; a dispatcher's are every one, or one
    /// caller's.
    @Sendable func list(_ request: Request, context: APIRequestContext) async throws -> Response {
        let caller = try context.requireCaller(in: [.passenger, .dispatcher])
        let phone = request.uri.queryParameters.get("callerPhone").map { String($0) }
        let owner: PassengerID?
        if caller.role == .dispatcher {
            if let phone, !PhoneCaller.isPhoneNumber(phone) {
                throw Problem.badRequest("'callerPhone' must be 3 to 32 digits, spaces and +-(), e.g. +1 212 555 0100")
            }
            owner = phone.map(PhoneCaller.id(of:))
        } else {
            guard phone == nil else { throw Problem.unprocessable("'callerPhone' is for dispatchers; a passenger sees its own") }
            owner = caller.passenger
        }
        return try JSONResponse.ok(await dispatcher.reservations(of: owner).map(ReservationJSON.init))
    }

    /// `GET /v1/reservations/{reservationId}`: one of the passenger's open reservations.
    @Sendable func show(_ request: Request, context: APIRequestContext) async throws -> Response {
        try JSONResponse.ok(ReservationJSON(try await ownReservation(request, context: context)))
    }

    /// `DELETE /v1/reservations/{reservationId}`: 204; 409 within the last hour before the pickup.
    @Sendable func cancel(_ request: Request, context: APIRequestContext) async throws -> Response {
        let reservation = try await ownReservation(request, context: context)
        try await dispatcher.execute(.cancelReservation(reservation.id), idempotencyKey: context.idempotencyKey)
        return Response(status: .noContent)
    }

    /// The caller's open reservation of the path (any, for a dispatcher);
    /// another passenger's is answered as unknown.
    private func ownReservation(_ request: Request, context: APIRequestContext) async throws -> Reservation {
        let caller = try context.requireCaller(in: [.passenger, .dispatcher])
        let text = try context.pathParameter("reservationId")
        guard let id = ReservationID(text: text) else {
            throw Problem.badRequest("'\(text)' is not a reservation id; reservation ids look like V3")
        }
        guard let reservation = await dispatcher.reservation(id), caller.may(see: reservation.passenger) else {
            throw Problem.notFound("no open reservation \(text)")
        }
        return reservation
    }
}

/// The body of `POST /v1/reservations`.
struct ReservationBody: Codable, Sendable {
    /// Where to pick the passenger up, named as a ride's pickup is: a point or an address.
    var pickup: LocationJSON?
    /// The same, by its older name, still read.
    var origin: LocationJSON?
    var destination: LocationJSON
    /// ISO 8601 with an offset or `Z`.
    var pickupAt: String
    /// A dispatcher's phone caller: digits, spaces and `+-()`, 3 to 32 characters.
    var callerPhone: String?
    /// The party's size: only a taxi with as many seats is allocated (default 1).
    var seats: Int?
}
