import DispatchSimulation
import GeoKit
import Routing
import Zones

/// Where the simulated city's trips go: road places in a zone drawn
/// uniformly, or with measured demand the ends of real trips, so that
/// requests are dense where the city's are.
struct SimulationTrips: Sendable {
    /// The road graph's places inside a zone.
    let places: ServiceAreaPlaces
    /// Measured trips to draw from, when given.
    let demand: DemandPoints?

    /// The places of `router`'s roads inside `zones`, and the trips of
    /// `demandCSV` (NYC TLC columns) with both ends among them.
    /// - Throws: ``SimulatorError`` when the graph has no road in a zone or the demand file has no usable trip.
    init(router: RoadRouter, zones: ZoneIndex, demandCSV: String?) throws {
        do {
            places = try ServiceAreaPlaces(router: router, zones: zones)
        } catch {
            throw SimulatorError(error.description)
        }
        let bounds = BoundingBox(enclosing: places.places.map(\.coordinate))
        demand = try demandCSV.flatMap { text in try bounds.map { try DemandPoints(csv: text, zones: zones, bounds: $0) } }
    }

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

    /// A road place drawn uniformly (where a taxi starts).
    func place(using random: inout SplitMix64) -> Coordinate {
        places.random(using: &random).coordinate
    }
}
