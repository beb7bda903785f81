import GeoKit
import Routing
import Zones

/// The road nodes of the graph that lie in a zone: where simulated taxis
/// start and passengers ask, so that every place is both routable and in
/// the service area.
public struct ServiceAreaPlaces: Sendable {
    /// Every such node, with its zone.
    public let places: [(coordinate: Coordinate, zone: ZoneID)]

    /// The nodes of `router`'s graph inside a zone of `zones`.
    /// - Throws: ``SimulationError/noRoadInTheServiceArea`` when there is none.
    public init(router: RoadRouter, zones: ZoneIndex) throws(SimulationError) {
        places = router.graph.coordinates.compactMap { coordinate in zones.zone(at: coordinate).map { (coordinate, $0.id) } }
        guard !places.isEmpty else { throw .noRoadInTheServiceArea }
    }

    /// A place drawn uniformly with `random`.
    public func random(using random: inout SplitMix64) -> (coordinate: Coordinate, zone: ZoneID) {
        places[Int(random.next() % UInt64(places.count))]
    }
}
