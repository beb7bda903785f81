import Foundation
import GeoKit

/// The passengers' requests of a run, one after another: Poisson arrivals
/// at ``SimulatorSettings/requestsPerHour`` of simulated time, each from a
/// passenger drawn at random, with its trip, whether it books instead and
/// whether it cancels. Every value comes from the run's seed, in a random
/// stream of its own, so that the same seed plans the same requests.
struct PassengerArrivals {
    private let settings: SimulatorSettings
    private let trips: SimulationTrips
    private var random: SplitMix64
    private var elapsed = 0.0

    /// The arrivals of a run with `settings`, on `trips`.
    init(settings: SimulatorSettings, trips: SimulationTrips) {
        self.settings = settings
        self.trips = trips
        random = SplitMix64(state: settings.seed &+ 0x5EED)
    }

    /// The next request, or nil when none arrive (no rate or no passenger).
    mutating func next() -> PlannedRequest? {
        guard settings.requestsPerHour > 0, settings.passengers > 0 else { return nil }
        elapsed += -log(1 - random.nextUnit()) * 3600 / settings.requestsPerHour
        let passenger = Int(random.next() % UInt64(settings.passengers))
        let trip = trips.trip(using: &random)
        let reserves = random.nextUnit() < settings.reservationShare
        let cancelsAfter = random.nextUnit() < settings.cancelRate ? 60 + random.nextUnit() * 600 : nil
        let bookAhead = 2 * 3600 + random.nextUnit() * 22 * 3600
        return PlannedRequest(
            atSeconds: elapsed, passenger: passenger, pickup: trip.pickup, destination: trip.destination,
            reservationAheadSeconds: reserves ? bookAhead : nil, cancelsAfterSeconds: cancelsAfter)
    }
}
