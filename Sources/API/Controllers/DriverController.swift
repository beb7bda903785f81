import DispatchCore
import DispatchRuntime
import FixRecords
import Fleet
import Foundation
import Hummingbird
import ServiceClock
import Storage

/// `/v1/driver`: the driver's app (SPEC D1, D3, D6, D8). The driver's taxi
/// is the account's (username = taxi id); logging in (`POST /v1/sessions`)
/// puts it on duty, unavailable until the driver switches to available.
struct DriverController: Sendable {
    let dispatcher: Dispatcher
    /// The live fleet: where the taxi's terminal last put it.
    let fleet: FleetIndex
    let clock: any ServiceClock

    func addRoutes(to group: RouterGroup<APIRequestContext>) {
        group.get(use: show)
        group.put("availability", use: availability)
        group.post("offer/accept", use: accept)
        group.post("offer/refuse", use: refuse)
        group.post("ride/arrived", use: step(.arrived))
        group.post("ride/aboard", use: step(.passengerAboard))
        group.post("ride/completed", use: step(.completed))
        group.post("ride/missing-client", use: step(.missingClient))
        group.get("rides", use: history)
    }

    /// `GET /v1/driver`: the taxi's state, zone, queue place, offer and ride.
    @Sendable func show(_ request: Request, context: APIRequestContext) async throws -> Response {
        try JSONResponse.ok(await driverJSON(try taxi(of: context)))
    }

    /// `PUT /v1/driver/availability` `{"available": true|false}`: joins or leaves its zone's queue.
    @Sendable func availability(_ request: Request, context: APIRequestContext) async throws -> Response {
        let taxi = try taxi(of: context)
        let body = try await request.decode(as: AvailabilityBody.self, context: context)
        try await run(body.available ? .setAvailable(taxi) : .setUnavailable(taxi), context)
        return try JSONResponse.ok(await driverJSON(taxi))
    }

    /// `POST /v1/driver/offer/accept`: takes the offered ride; the passenger
    /// is told the taxi and the router's ETA. Answers the taxi's state with the ride.
    @Sendable func accept(_ request: Request, context: APIRequestContext) async throws -> Response {
        let taxi = try taxi(of: context)
        try await dispatcher.accept(taxi, idempotencyKey: context.idempotencyKey)
        return try JSONResponse.ok(await driverJSON(taxi))
    }

    /// `POST /v1/driver/offer/refuse`: the offer goes to the next taxi, this one to the back of its queue.
    @Sendable func refuse(_ request: Request, context: APIRequestContext) async throws -> Response {
        let taxi = try taxi(of: context)
        try await run(.refuse(taxi), context)
        return try JSONResponse.ok(await driverJSON(taxi))
    }

    /// `POST /v1/driver/ride/{arrived|aboard|completed|missing-client}[?rideId=R12]`:
    /// the ride's next step (SPEC D6). On a shared ride (D10), the step of
    /// the rider `rideId` names, or of the itinerary's next stop without it.
    func step(_ step: RideStep) -> @Sendable (Request, APIRequestContext) async throws -> Response {
        { [self] request, context in
            let taxi = try taxi(of: context)
            let rider = try request.uri.queryParameters.get("rideId").map { text in
                guard let id = RideRequestID(text: String(text)) else {
                    throw Problem.badRequest("'rideId' must be a ride id such as R12, not '\(text)'")
                }
                return id
            }
            do {
                switch step {
                case .arrived: try await run(.arrived(taxi, rider: rider), context)
                case .passengerAboard: try await run(.passengerAboard(taxi, rider: rider), context)
                case .completed: try await run(.completed(taxi, rider: rider), context)
                case .missingClient: try await run(.missingClient(taxi, rider: rider), context)
                }
            } catch DispatcherError.rejected(.rideStepOutOfOrder) {
                throw Problem.conflict(Self.outOfOrder(step, view: await dispatcher.driver(taxi), rider: rider))
            }
            return try JSONResponse.ok(await driverJSON(taxi))
        }
    }

    /// The ride endpoints, by the step each reports.
    static func endpoint(of step: RideStep) -> String {
        switch step {
        case .arrived: "POST /v1/driver/ride/arrived"
        case .passengerAboard: "POST /v1/driver/ride/aboard"
        case .completed: "POST /v1/driver/ride/completed"
        case .missingClient: "POST /v1/driver/ride/missing-client"
        }
    }

    /// Why `step` cannot be reported now, for the driver: where the taxi's
    /// ride (or the shared ride's rider the driver named) stands and which
    /// calls come next, by the endpoints the driver calls.
    static func outOfOrder(_ step: RideStep, view: DriverView, rider: RideRequestID? = nil) -> String {
        let refused = "\(endpoint(of: step)) does not apply now"
        if let rider, view.ride?.id != rider, !view.itinerary.contains(where: { $0.request.id == rider }) {
            return "\(refused): ride \(rider) is not one of this taxi's"
        }
        let named = rider.flatMap { id in view.itinerary.first { $0.request.id == id }?.request }
        guard let ride = named ?? view.ride else { return "\(refused): the taxi has no ride" }
        let next: [RideStep]
        let stands: String
        switch ride.phase {
        case .waiting:
            return "\(refused): the taxi has no ride"
        case .offered:
            return "\(refused): ride \(ride.id) is only offered; next: POST /v1/driver/offer/accept or POST /v1/driver/offer/refuse"
        case .assigned:
            (stands, next) = ("is on its way to the pickup", [.arrived, .passengerAboard])
        case .arrived:
            (stands, next) = (
                "is at the pickup (a taxi within \(Int(Dispatcher.arrivalRadiusMetres)) m of it is marked arrived by itself)",
                [.passengerAboard, .missingClient])
        case .aboard:
            (stands, next) = ("has its passenger aboard", [.completed])
        }
        return "\(refused): ride \(ride.id) \(stands); next: \(next.map(endpoint(of:)).joined(separator: " or "))"
    }

    /// `GET /v1/driver/rides?days=31`: the rides the taxi served or was sent for, most recent first (SPEC D8).
    @Sendable func history(_ request: Request, context: APIRequestContext) async throws -> Response {
        let taxi = try taxi(of: context)
        let days = try request.queryCount("days", in: 1...366, default: 31)
        return try JSONResponse.ok(try await dispatcher.history(ofTaxi: taxi, days: days).map(HistoryJSON.init))
    }

    private func taxi(of context: APIRequestContext) throws -> TaxiID {
        guard let taxi = try context.requireCaller(in: [.driver]).taxi else {
            throw Problem(status: .forbidden, detail: "this driver account is bound to no taxi; ask an administrator")
        }
        return taxi
    }

    /// Runs `command` under the request's idempotency key.
    private func run(_ command: DispatchCommand, _ context: APIRequestContext) async throws {
        try await dispatcher.execute(command, idempotencyKey: context.idempotencyKey)
    }

    private func driverJSON(_ taxi: TaxiID) async -> DriverJSON {
        let now = clock.now
        var driver = DriverJSON(taxi, view: await dispatcher.driver(taxi), now: now)
        driver.position = fleet.entry(for: taxi, now: now).map(TaxiJSON.init)
        return driver
    }
}

/// The body of `PUT /v1/driver/availability`.
struct AvailabilityBody: Codable, Sendable {
    var available: Bool
}
