import DispatchSimulation
import Foundation
import GeoKit

/// The passengers of a run: requests arrive at random (Poisson, at
/// ``SimulatorSettings/requestsPerHour`` of simulated time), each from one
/// of the passenger accounts. A passenger asks the expected wait first
/// (`GET /v1/waits`), then requests a ride to a destination, confirms when
/// queued, and sometimes cancels after a while; a share of them book a
/// reservation 2 to 24 hours ahead instead, and sometimes cancel it. The
/// arrivals and every choice come from the run's seed.
struct SimulatedPassengers {
    private let context: SimulationContext
    private var random: SplitMix64

    /// The passengers of `context`'s run.
    init(context: SimulationContext) {
        self.context = context
        random = SplitMix64(state: context.settings.seed &+ 0x5EED)
    }

    /// The username of the `index`-th passenger (from 0).
    static func username(_ index: Int) -> String { String(format: "sim-p%05d", index + 1) }

    /// Sends requests until the simulated time is over.
    mutating func run(tokens: [String]) async {
        let settings = context.settings
        guard settings.requestsPerHour > 0, !tokens.isEmpty else { return }
        await withDiscardingTaskGroup { group in
            var next = nextArrivalGap()
            while !context.clock.isOver {
                let wait = context.clock.real(next - context.clock.elapsed)
                if wait > .zero { try? await Task.sleep(for: min(wait, .milliseconds(500))) }
                guard context.clock.elapsed >= next else { continue }
                next += nextArrivalGap()
                let token = tokens[Int(random.next() % UInt64(tokens.count))]
                let trip = context.trip(using: &random)
                let reserves = random.nextUnit() < settings.reservationShare
                let cancelsAfter = random.nextUnit() < settings.cancelRate ? 60 + random.nextUnit() * 600 : nil
                let bookAhead = 2 * 3600 + random.nextUnit() * 22 * 3600
                let context = context
                group.addTask {
                    if reserves {
                        await Self.reserve(context, token: token, trip: trip, ahead: bookAhead, cancels: cancelsAfter != nil)
                    } else {
                        await Self.request(context, token: token, trip: trip, cancelsAfter: cancelsAfter)
                    }
                }
            }
        }
    }

    /// One request for a ride now; a queued one is confirmed, and cancelled
    /// after `cancelsAfter` simulated seconds when no taxi is on its way by then.
    private static func request(
        _ context: SimulationContext, token: String, trip: (pickup: Coordinate, destination: Coordinate), cancelsAfter: Double?
    ) async {
        let client = context.client
        do {
            let wait = try await client.call("GET", "/v1/waits?lon=\(trip.pickup.longitude)&lat=\(trip.pickup.latitude)", token: token)
            let asked = context.clock.now
            let answer = try await client.call(
                "POST", "/v1/rides", token: token, body: ["pickup": point(trip.pickup), "destination": point(trip.destination)])
            guard answer.status == 201, let ride = answer.json["rideId"] as? String else {
                if answer.status != 409 { context.tally.requestRefused() }
                return
            }
            context.tally.requested(ride, at: asked, toldWaitSeconds: wait.json["expectedWaitS"] as? Double)
            if answer.json["status"] as? String == "queued" {
                context.tally.queued()
                _ = try await client.call("POST", "/v1/rides/\(ride)/confirmation", token: token)
            }
            guard let cancelsAfter, await context.clock.pause(simulated: cancelsAfter) else { return }
            let current = try await client.call("GET", "/v1/rides/\(ride)", token: token)
            guard ["queued", "offered"].contains(current.json["status"] as? String ?? "") else { return }
            if try await client.call("DELETE", "/v1/rides/\(ride)", token: token).status == 204 { context.tally.cancelled() }
        } catch {
            context.tally.apiFailed()
        }
    }

    /// One reservation `ahead` seconds from now (wall-clock time, as the service books), perhaps cancelled at once.
    private static func reserve(
        _ context: SimulationContext, token: String, trip: (pickup: Coordinate, destination: Coordinate), ahead: Double, cancels: Bool
    ) async {
        let pickupAt = Date().addingTimeInterval(ahead).formatted(.iso8601)
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
            context.tally.apiFailed()
        }
    }

    private static func point(_ coordinate: Coordinate) -> [String: Double] {
        ["lon": coordinate.longitude, "lat": coordinate.latitude]
    }

    private mutating func nextArrivalGap() -> Double {
        -log(1 - random.nextUnit()) * 3600 / context.settings.requestsPerHour
    }
}
