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
    let candidates: SnapCandidates
}

extension Router {
    /// `coordinate` snapped to the roads, as ``table(fromSnapped:to:depart:)`` takes it.
    /// - Throws: ``SnapError`` when it is too far from a road.
    public func snap(_ coordinate: Coordinate) throws -> SnappedPlace {
        SnappedPlace(coordinate: coordinate, candidates: try candidates(coordinate))
    }

    /// `coordinate` snapped to the roads, or nil when it is too far from
    /// every road, without measuring how far (as an error would).
    public func snapIfNear(_ coordinate: Coordinate) -> SnappedPlace? {
        snapIfNear([coordinate])[0]
    }

    /// ``snapIfNear(_:)`` of each of `coordinates`, index for index: how
    /// the fleet's moves and a table's sources are snapped, in one batch
    /// call of the snapper, which allocates only for places near more than
    /// one road.
    public func snapIfNear(_ coordinates: [Coordinate]) -> [SnappedPlace?] {
        let found = snapper.candidatesIfNear(coordinates, maxDistanceMetres: maxSnapDistanceMetres,
                                             radiusMetres: snapRadiusMetres, limit: Self.maxSnapCandidates)
        return zip(coordinates, found).map { coordinate, candidates in
            candidates.map { SnappedPlace(coordinate: coordinate, candidates: $0) }
        }
    }

    /// Travel estimates from many snapped places to one (say, every free
    /// taxi to a pickup), leaving at `depart`: as ``table(from:to:depart:)``
    /// without snapping the sources again. A nil source gives a nil estimate.
    ///
    /// The sources' seeds go straight into one flat list for the table's
    /// selection, with no array per source, and only the sources with a
    /// candidate on one of the target's roads are checked for driving
    /// straight to it (``TargetRoads``): the query stays close to one
    /// search plus one sweep however many taxis are asked about.
    /// - Throws: ``SnapError`` when the target is too far from a road.
    public func table(fromSnapped sources: [SnappedPlace?], to target: Coordinate, depart: Date) throws -> [TravelEstimate?] {
        let metric = metric(departing: depart)
        let to = try targetEndpoint(target, metric)
        var seeds: [SearchSeed] = [], firstSeed: [UInt32] = [0]
        seeds.reserveCapacity(sources.count * 4)
        firstSeed.reserveCapacity(sources.count + 1)
        for place in sources {
            if let place {
                for candidate in place.candidates {
                    forEachSourceSeed(candidate, metric) { seed, _, _ in seeds.append(seed) }
                }
            }
            firstSeed.append(UInt32(seeds.count))
        }
        let selection = CCHSelection(topology: topology, seeds: seeds, firstSeed: firstSeed)
        let cells = withQuery { $0.manyToOne(from: selection, to: to.seeds, metric: metric) }
        let targetRoads = TargetRoads(to.candidates, tails: snapper.edgeTail, heads: graph.edgeHead)
        return zip(sources, cells).map { place, cell in
            guard let place else { return nil }
            guard targetRoads.containsRoad(ofAnyOf: place.candidates) else { return estimate(cell, direct: nil) }
            return estimate(cell, direct: directDrive(from: place.candidates, to: to.candidates, metric: metric))
        }
    }
}
