import DispatchSimulation
import GeoKit
import Routing

/// What every simulated taxi and passenger shares: the roads and trips of
/// the city, the clock, the settings, the service and the tally.
struct SimulationContext: Sendable {
    let router: RoadRouter
    let trips: SimulationTrips
    let clock: SimulatedClock
    let settings: SimulatorSettings
    let endpoints: ServiceEndpoints
    let client: ServiceClient
    let tally: SimulationTally
}
