import DispatchSimulation
import GeoKit
import Routing

/// What every simulated taxi and passenger shares: the roads and places of
/// the city, the clock, the settings, the service and the tally.
struct SimulationContext: Sendable {
    let router: Router
    let places: ServiceAreaPlaces
    let demand: DemandPoints?
    let clock: SimulatedClock
    let settings: SimulatorSettings
    let endpoints: ServiceEndpoints
    let client: ServiceClient
    let tally: SimulationTally

    /// A pickup and a destination: a measured trip's ends when there is a
    /// demand file, else two places drawn uniformly.
    func trip(using random: inout SplitMix64) -> (pickup: Coordinate, destination: Coordinate) {
        if let demand { return demand.random(using: &random) }
        return (places.random(using: &random).coordinate, places.random(using: &random).coordinate)
    }

    /// A place a free taxi drives to: where passengers ask, when known.
    func cruisingTarget(using random: inout SplitMix64) -> Coordinate {
        trip(using: &random).pickup
    }
}
