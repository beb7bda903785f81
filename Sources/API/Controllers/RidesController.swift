import DispatchCore
import DispatchRuntime
import FixRecords
import Fleet
import Foundation
import GeoKit
import Hummingbird
import JSONKit
import Routing
import ServiceClock
import Storage
import Zones

/// `/v1/rides`: immediate ride requests (SPEC D3, D4). A passenger asks
/// for itself; a dispatcher asks for a phone caller. Each answer comes
/// once the dispatcher made the request durable: the first offer made, or
/// the place in the zone's passenger queue with the expected wait.
struct RidesController: Sendable {
    let dispatcher: Dispatcher
    let zones: ActiveZones
    /// Where a taxi stops for a pickup it cannot reach exactly.
    let meetingPoints: MeetingPoints
    /// Turns typed addresses into points.
    let addresses: AddressResolver
    /// The live fleet, for the position of a ride's taxi.
    let fleet: FleetIndex
    /// The road router, for a ride's route.
    let router: RoadRouter
    /// The most passengers any taxi carries (nil: no taxi registered).
    let largestSeats: @Sendable () -> Int?
    let clock: any ServiceClock

    func addRoutes(to group: RouterGroup<APIRequestContext>) {
        group.post(use: request)
        group.get(use: list)
        group.get("current", use: current)
        group.get("by-phone", use: byPhone)
        group.get(":rideId", use: show)
        group.get(":rideId/route", use: route)
        group.post(":rideId/confirmation", use: confirm)
        group.delete(":rideId", use: cancel)
    }

    /// `POST /v1/rides` `{"pickup": {"lon", "lat"} | {"address"}, "destination"?, "callerPhone"?, "seats"?, "shared"?}`: 201 with the ride.
    /// A shared ride (`"shared": true`, with a destination) joins a taxi
    /// already on a shared ride when one can take it within every rider's
    /// bounds, else is served alone and open to later riders (SPEC D10).
    /// A pickup in the service area where no taxi can stop (a pedestrian
    /// street, a park) is served at its meeting point: the ride's `pickup`
    /// is where the taxi stops, its `meetingPoint` the walk there (SPEC R5).
    /// The pickup and the destination are points or addresses
    /// (`{"address": "350 5th Ave"}`); the answer echoes each address understood.
    @Sendable func request(_ request: Request, context: APIRequestContext) async throws -> Response {
        let caller = try context.requireCaller(in: [.passenger, .dispatcher])
        let body = try await request.decode(as: RideRequestBody.self, context: context)
        let passenger = try body.passenger(for: caller)
        let seats = try PartySeats.checked(body.seats, largest: largestSeats())
        let resolvedPickup = try addresses.resolve(body.pickup, field: "pickup")
        let resolvedDestination = try body.destination.map {
            try addresses.resolve($0, field: "destination", near: resolvedPickup.coordinate)
        }
        let asked = resolvedPickup.coordinate, destination = resolvedDestination?.coordinate
        var pickup = asked, walk: PickupWalk?
        if zones.current.zone(at: asked) != nil {
            (pickup, walk) = try meetingPoints.pickup(for: asked, depart: clock.now)
        }
        let zone = zones.current.zone(at: pickup)?.id
        let events: [DispatchEvent]
        if body.shared == true {
            guard let destination else {
                throw Problem.badRequest("a shared ride needs a 'destination': the other riders' stops are planned around it")
            }
            events = try await dispatcher.requestShared(
                passenger, pickup: pickup, zone: zone, destination: destination, walk: walk, seats: seats,
                directTrip: try router.directTrip(from: pickup, to: destination, depart: clock.now), idempotencyKey: context.idempotencyKey)
        } else {
            events = try await dispatcher.execute(
                .request(passenger, pickup: pickup, zone: zone, destination: destination, walk: walk, seats: seats),
                idempotencyKey: context.idempotencyKey)
        }
        if case .requestRefused(_, let refusal) = events.first { throw Problem(refusal) }
        guard case .requestOpened(let id, _, _) = events.first else {
            throw Problem.unavailable("the dispatcher did not open the request; try again")
        }
        let location = "/v1/rides/\(id)"
        guard let open = await dispatcher.ride(id) else {
            return try JSONResponse.created(try await endedRideJSON(id), location: location)
        }
        var ride = await withExpectedWait(rideJSON(open))
        ride.pickupAddress = resolvedPickup.understood
        ride.destinationAddress = resolvedDestination?.understood
        return try JSONResponse.created(ride, location: location)
    }

    /// Ride `id` as its history tells it. A retried request whose first
    /// answer was never kept (the node died between the dispatch log and
    /// the answer store) is answered from the dispatcher's first decision;
    /// when that ride has ended since, the client is told how it ended,
    /// never that its request is unknown.
    /// - Throws: ``Problem`` 503 when the ride's end is not in the log yet.
    private func endedRideJSON(_ id: RideRequestID) async throws -> HistoryJSON {
        guard let ended = try await dispatcher.endedRide(id) else {
            throw Problem.unavailable("ride \(id) has just ended and its history is not written yet; try again")
        }
        return HistoryJSON(ended)
    }

    /// `GET /v1/rides[?zoneId=ID]`: every open ride, or a zone's, oldest
    /// first, for dispatchers: what is waiting, offered, on its way, at its
    /// pickup or under way.
    @Sendable func list(_ request: Request, context: APIRequestContext) async throws -> Response {
        _ = try context.requireCaller(in: [.dispatcher])
        let zone = request.uri.queryParameters.get("zoneId").map { ZoneID(String($0)) }
        let now = clock.now
        return try JSONResponse.ok(await dispatcher.openRides(in: zone).map { rideJSON($0, now: now) })
    }

    /// `GET /v1/rides/by-phone?days=1[&callerPhone=NUMBER]`: the phone
    /// callers' rides and bookings that ended in the past `days` days (1 to
    /// 31), or one caller's, most recent first, for dispatchers: today's
    /// phone rides, and what became of a caller's who calls back.
    @Sendable func byPhone(_ request: Request, context: APIRequestContext) async throws -> Response {
        _ = try context.requireCaller(in: [.dispatcher])
        let days = try request.queryCount("days", in: 1...31, default: 1)
        let ended: [RideHistoryRecord]
        if let phone = request.uri.queryParameters.get("callerPhone").map({ String($0) }) {
            guard PhoneCaller.isPhoneNumber(phone) else {
                throw Problem.badRequest("'callerPhone' must be 3 to 32 digits, spaces and +-(), e.g. +1 212 555 0100")
            }
            ended = try await dispatcher.history(ofPassenger: PhoneCaller.id(of: phone), days: days).past
        } else {
            ended = try await dispatcher.history(ofPassengersPrefixed: PhoneCaller.prefix, days: days)
        }
        return try JSONResponse.ok(ended.map(HistoryJSON.init))
    }

    /// `GET /v1/rides/current`: the passenger's open ride, 404 when none.
    @Sendable func current(_ request: Request, context: APIRequestContext) async throws -> Response {
        let caller = try context.requireCaller(in: [.passenger])
        guard let ride = await dispatcher.openRide(of: caller.passenger) else {
            throw Problem.notFound("you have no open ride; request one with POST /v1/rides")
        }
        return try JSONResponse.ok(await withExpectedWait(rideJSON(ride)))
    }

    /// `GET /v1/rides/{rideId}`: a ride, to its passenger or a dispatcher:
    /// an open one as it stands, an ended one as its history tells it, so
    /// that a finished phone ride can be looked up by the id told to the caller.
    @Sendable func show(_ request: Request, context: APIRequestContext) async throws -> Response {
        let caller = try context.requireCaller(in: [.passenger, .dispatcher])
        let (text, id) = try rideID(context)
        if let ride = await dispatcher.ride(id) {
            guard caller.may(see: ride.request.passenger) else { throw Problem.notFound("no ride \(text)") }
            return try JSONResponse.ok(await withExpectedWait(rideJSON(ride)))
        }
        guard let ended = try await dispatcher.endedRide(id), caller.may(see: PassengerID(ended.passenger)) else {
            throw Problem.notFound("no ride \(text), open or ended")
        }
        return try JSONResponse.ok(HistoryJSON(ended))
    }

    /// `POST /v1/rides/{rideId}/confirmation`: the queued passenger confirms waiting (SPEC D4).
    @Sendable func confirm(_ request: Request, context: APIRequestContext) async throws -> Response {
        let id = try await ownRide(request, context: context, roles: [.passenger, .dispatcher])
        try await dispatcher.execute(.confirm(id), idempotencyKey: context.idempotencyKey)
        return try JSONResponse.ok(try await rideJSON(id))
    }

    /// `DELETE /v1/rides/{rideId}`: cancels; it is never offered again. 204.
    @Sendable func cancel(_ request: Request, context: APIRequestContext) async throws -> Response {
        let id = try await ownRide(request, context: context, roles: [.passenger, .dispatcher])
        try await dispatcher.execute(.cancel(id), idempotencyKey: context.idempotencyKey)
        return Response(status: .noContent)
    }

    /// The ride of the path, when the caller may see it: its passenger, or
    /// any dispatcher. Another passenger's ride is answered as unknown.
    private func ownRide(_ request: Request, context: APIRequestContext, roles: Set<Role>) async throws -> RideRequestID {
        let caller = try context.requireCaller(in: roles)
        let (text, id) = try rideID(context)
        guard let ride = await dispatcher.ride(id), caller.may(see: ride.request.passenger) else {
            throw Problem.notFound("no open ride \(text)")
        }
        return id
    }

    /// The ride id of the path, as written and as the engine's number.
    private func rideID(_ context: APIRequestContext) throws -> (text: String, id: RideRequestID) {
        let text = try context.pathParameter("rideId")
        guard let id = RideRequestID(text: text) else {
            throw Problem.badRequest("'\(text)' is not a ride id; ride ids look like R12")
        }
        return (text, id)
    }

    /// The JSON of open ride `id`.
    private func rideJSON(_ id: RideRequestID) async throws -> RideJSON {
        guard let ride = await dispatcher.ride(id) else { throw Problem.notFound("ride \(id) is no longer open") }
        return rideJSON(ride)
    }

    /// `ride` with its expected wait while it is queued.
    private func withExpectedWait(_ ride: RideJSON) async -> RideJSON {
        guard ride.status == "queued", let id = RideRequestID(text: ride.rideId) else { return ride }
        var queued = ride
        queued.expectedWaitS = await dispatcher.expectedWait(ofQueued: id).map(JSONWriter.roundedSeconds)
        return queued
    }

    /// The JSON of `view`, with its taxi's latest position once one is sent.
    private func rideJSON(_ view: RideView, now: Date? = nil) -> RideJSON {
        RideJSON(view, now: now ?? clock.now, fleet: fleet)
    }

    /// `GET /v1/rides/{rideId}/route`: where the ride goes, as a GeoJSON
    /// FeatureCollection of LineStrings (SPEC R3): `toPickup`, from its
    /// taxi's latest position while the taxi is offered it or on its way,
    /// and `toDestination`, from the pickup, when the ride has a
    /// destination; each with `durationS` and `distanceM` at the speeds of
    /// now. For its passenger, any dispatcher, and the driver it is offered
    /// or assigned to. A leg the router cannot place is left out.
    @Sendable func route(_ request: Request, context: APIRequestContext) async throws -> Response {
        let caller = try context.requireCaller(in: [.passenger, .dispatcher, .driver])
        let (text, id) = try rideID(context)
        guard let ride = await dispatcher.ride(id)?.request,
              caller.may(see: ride.passenger), caller.role != .driver || ride.phase.taxi == caller.taxi else {
            throw Problem.notFound("no open ride \(text) of yours")
        }
        let depart = clock.now
        // On a shared ride, the other riders' stops before the pickup and before the drop-off.
        let stops = await sharedStops(around: ride)
        var legs: [JSONValue] = []
        switch ride.phase {
        case .offered(let offer):
            legs += leg("toPickup", through: [fleet.latestPosition(of: offer.taxi)?.coordinate, ride.pickup], depart: depart)
        case .assigned(let taxi, _):
            legs += leg("toPickup", through: [fleet.latestPosition(of: taxi)?.coordinate] + stops.beforePickup + [ride.pickup], depart: depart)
        case .waiting, .arrived, .aboard:
            break
        }
        legs += leg("toDestination", through: [ride.pickup] + stops.beforeDropoff + [ride.destination], depart: depart)
        let collection = JSONValue.object([
            "type": .string("FeatureCollection"),
            "rideId": .string(text),
            "features": .array(legs),
        ])
        return Response(status: .ok, headers: [.contentType: "application/geo+json"],
                        body: .init(byteBuffer: ByteBuffer(string: collection.serialized)))
    }

    /// The route of one leg through `points` in order as a feature named
    /// `name`; none when a point is unknown or the router cannot route a stretch.
    private func leg(_ name: String, through points: [Coordinate?], depart: Date) -> [JSONValue] {
        let known = points.compactMap { $0 }
        guard known.count == points.count, known.count >= 2 else { return [] }
        var whole: Route?
        for (from, to) in zip(known, known.dropFirst()) {
            guard let stretch = try? router.route(from: from, to: to, depart: depart, includeGeometry: true) else { return [] }
            guard var joined = whole else {
                whole = stretch
                continue
            }
            joined.durationSeconds += stretch.durationSeconds
            joined.distanceMetres += stretch.distanceMetres
            joined.geometry += stretch.geometry.dropFirst()
            joined.targetSnapMetres = stretch.targetSnapMetres
            whole = joined
        }
        return whole.map { [RouteFeature.json($0, properties: ["leg": .string(name)])] } ?? []
    }

    /// The places of the other riders' stops `ride`'s taxi makes before its
    /// pickup and before its drop-off, on a shared ride; none otherwise.
    private func sharedStops(around ride: RideRequest) async -> (beforePickup: [Coordinate], beforeDropoff: [Coordinate]) {
        guard ride.isShared, let taxi = ride.phase.taxi else { return ([], []) }
        let itinerary = await dispatcher.driver(taxi).itinerary
        let pickup = itinerary.firstIndex { $0.stop == ItineraryStop(ride: ride.id, kind: .pickup) }
        guard let dropoff = itinerary.firstIndex(where: { $0.stop == ItineraryStop(ride: ride.id, kind: .dropoff) }) else { return ([], []) }
        func places(_ range: Range<Int>) -> [Coordinate] {
            itinerary[range].compactMap { $0.request.place(of: $0.stop.kind) }
        }
        return (pickup.map { places(0..<$0) } ?? [], places(((pickup ?? -1) + 1)..<dropoff))
    }
}

/// The body of `POST /v1/rides`.
struct RideRequestBody: Codable, Sendable {
    /// A point or an address.
    var pickup: LocationJSON
    /// A point or an address.
    var destination: LocationJSON?
    /// A dispatcher's phone caller: digits, spaces and `+-()`, 3 to 32 characters.
    var callerPhone: String?
    /// The party's size: only a taxi with as many seats is offered the ride (default 1).
    var seats: Int?
    /// True: the passenger shares the taxi with others going the same way
    /// (SPEC D10); a destination is then needed.
    var shared: Bool?

    /// Whom the request is for: the passenger itself, or a dispatcher's caller.
    func passenger(for caller: Caller) throws -> PassengerID {
        try PhoneCaller.passenger(for: caller, callerPhone: callerPhone)
    }
}
