import Foundation
import GeoKit

/// A place snapped to the road graph once (its snap candidates, with no
/// hour's speeds in them), so that travel times from it can be asked again
/// and again without snapping it again: a taxi waiting at a rank is snapped
/// once, not at every query (SPEC R3, D4).
public struct SnappedPlace: Sendable {
    /// The place as given.
    public let coordinate: Coordinate
    /// Its snap candidates, nearest first.
    let candidates: [Snapper.Snap]
}

extension Router {
    /// `coordinate` snapped to the roads, as ``table(fromSnapped:to:depart:)`` takes it.
    /// - Throws: ``SnapError`` when it is too far from a road.
    public func snap(_ coordinate: Coordinate) throws -> SnappedPlace {
        SnappedPlace(coordinate: coordinate, candidates: try candidates(coordinate))
    }

    /// Travel estimates from many snapped places to one (say, every free
    /// taxi to a pickup), leaving at `depart`: as ``table(from:to:depart:)``
    /// without snapping the sources again. A nil source gives a nil estimate.
    /// - Throws: ``SnapError`` when the target is too far from a road.
    public func table(fromSnapped sources: [SnappedPlace?], to target: Coordinate, depart: Date) throws -> [TravelEstimate?] {
        let metric = metric(departing: depart)
        let to = try targetEndpoint(target, metric)
        let from = sources.map { place in place.map { SnappedEndpoint(candidates: $0.candidates) { sourceSeeds($0, metric) } } }
        let selection = CCHSelection(topology: topology, endpoints: from.map { $0?.seeds ?? [] })
        let cells = withQuery { $0.manyToOne(from: selection, to: to.seeds, metric: metric) }
        return zip(from, cells).map { endpoint, cell in
            guard let endpoint else { return nil }
            return estimate(cell, direct: directDrive(from: endpoint, to: to, metric: metric))
        }
    }
}
