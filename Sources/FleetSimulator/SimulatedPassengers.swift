import DispatchSimulation
import Foundation
import GeoKit

/// The passengers of a run: they follow the plan of ``PassengerArrivals``
/// (who asks when, where, and whether they book or cancel), each request
/// sent when its simulated time comes. A passenger asks the expected wait
/// first (`GET /v1/waits`), then requests a ride to a destination,
/// confirms when queued, and sometimes cancels after a while; a share of
/// them book a reservation 2 to 24 hours ahead instead, and sometimes
/// cancel it.
struct SimulatedPassengers {
    private let context: SimulationContext
    private var arrivals: PassengerArrivals

    /// The passengers of `context`'s run.
    init(context: SimulationContext) {
        self.context = context
        arrivals = PassengerArrivals(settings: context.settings, trips: context.trips)
    }

    /// The username of the `index`-th passenger (from 0).
    static func username(_ index: Int) -> String { String(format: "sim-p%05d", index + 1) }

    /// The username of the `index`-th passenger of the burst (from 0).
    static func burstUsername(_ index: Int) -> String { String(format: "sim-burst-p%05d", index + 1) }

    /// Sends the planned requests, with the passengers' `tokens`, until the simulated time is over.
    mutating func run(tokens: [String]) async {
        guard tokens.count == context.settings.passengers else { return }
        await withDiscardingTaskGroup { group in
            while let planned = arrivals.next() {
                while !context.clock.isOver, context.clock.elapsed < planned.atSeconds {
                    try? await Task.sleep(for: min(context.clock.real(planned.atSeconds - context.clock.elapsed), .milliseconds(500)))
                }
                if context.clock.isOver { return }
                let token = tokens[planned.passenger]
                let trip = (pickup: planned.pickup, destination: planned.destination)
                let context = context
                group.addTask {
                    if let ahead = planned.reservationAheadSeconds {
                        await Self.reserve(context, token: token, trip: trip, ahead: ahead, cancels: planned.cancelsAfterSeconds != nil)
                    } else {
                        await Self.request(context, token: token, trip: trip, cancelsAfter: planned.cancelsAfterSeconds)
                    }
                }
            }
        }
    }

    /// One request for a ride now; a queued one is confirmed, and cancelled
    /// after `cancelsAfter` simulated seconds when no taxi is on its way by
    /// then. True when the service opened the ride (201).
    @discardableResult
    static func request(
        _ context: SimulationContext, token: String, trip: (pickup: Coordinate, destination: Coordinate), cancelsAfter: Double?
    ) async -> Bool {
        let client = context.client
        var opened = false
        do {
            let wait = try await client.call("GET", "/v1/waits?lon=\(trip.pickup.longitude)&lat=\(trip.pickup.latitude)", token: token)
            let asked = context.clock.now
            let answer = try await client.call(
                "POST", "/v1/rides", token: token, body: ["pickup": point(trip.pickup), "destination": point(trip.destination)])
            guard answer.status == 201, let ride = answer.json["rideId"] as? String else {
                if answer.status != 409 { context.tally.requestRefused() }
                return false
            }
            context.tally.requested(
                ride, zoneId: wait.json["zoneId"] as? String, at: asked, toldWaitSeconds: wait.json["expectedWaitS"] as? Double)
            opened = true
            if answer.json["status"] as? String == "queued" {
                context.tally.queued(ride)
                _ = try await client.call("POST", "/v1/rides/\(ride)/confirmation", token: token)
            }
            guard let cancelsAfter, await context.clock.pause(simulated: cancelsAfter) else { return opened }
            let current = try await client.call("GET", "/v1/rides/\(ride)", token: token)
            guard ["queued", "offered"].contains(current.json["status"] as? String ?? "") else { return opened }
            if try await client.call("DELETE", "/v1/rides/\(ride)", token: token).status == 204 { context.tally.cancelled() }
        } catch {
            context.tally.apiFailed(error)
        }
        return opened
    }

    /// One reservation `ahead` seconds from now on the service's clock, perhaps cancelled at once.
    private static func reserve(
        _ context: SimulationContext, token: String, trip: (pickup: Coordinate, destination: Coordinate), ahead: Double, cancels: Bool
    ) async {
        let pickupAt = context.clock.serviceNow.addingTimeInterval(ahead).formatted(.iso8601)
        do {
            let answer = try await context.client.call(
                "POST", "/v1/reservations", token: token,
                body: ["origin": point(trip.pickup), "destination": point(trip.destination), "pickupAt": pickupAt])
            guard answer.status == 201, let id = answer.json["reservationId"] as? String else {
                if answer.status != 409 { context.tally.requestRefused() }
                return
            }
            context.tally.reservationBooked()
            guard cancels else { return }
            if try await context.client.call("DELETE", "/v1/reservations/\(id)", token: token).status == 204 {
                context.tally.reservationCancelled()
            }
        } catch {
            context.tally.apiFailed(error)
        }
    }

    private static func point(_ coordinate: Coordinate) -> [String: Double] {
        ["lon": coordinate.longitude, "lat": coordinate.latitude]
    }
}
