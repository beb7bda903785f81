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

extension RoadRouter {
    /// `coordinate` snapped to the roads, as ``table(fromSnapped:to:depart:)`` takes it.
    /// - Throws: ``SnapError`` when it is too far from a road.
    public func snap(_ coordinate: Coordinate) throws -> SnappedPlace {
        SnappedPlace(coordinate: coordinate, candidates: try candidates(coordinate))
    }

    /// Each of `coordinates` snapped to the roads, index for index, nil for
    /// one too far from every road, without measuring how far (as an error
    /// would): how the fleet's moves and a table's sources are snapped, in
    /// one batch call of the snapper, which allocates only for places near
    /// more than one road.
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
    /// - Throws: ``SnapError`` when the target is too far from a road.
    public func table(fromSnapped sources: [SnappedPlace?], to target: Coordinate, depart: Date) throws -> [TravelEstimate?] {
        try table(fromSnapped: SnappedPlaces(sources), at: sources.indices.map(Optional.some), to: target, depart: depart)
    }

    /// Travel estimates from the places at `indices` of `places` to one
    /// place, index for index, leaving at `depart`, read where they lie:
    /// how a fleet's kept places are asked about (a nil index, or a place
    /// off the roads, gives a nil estimate).
    ///
    /// When the sources are many for the graph (a fleet in its district),
    /// the times from every node to the target are swept once and each
    /// source's seeds read from them; otherwise their seeds go into one
    /// flat list for the table's selection. Only the sources with a
    /// candidate on one of the target's roads are checked for driving
    /// straight to it (``TargetRoads``): the query stays close to one
    /// search plus one sweep however many taxis are asked about.
    /// - Throws: ``SnapError`` when the target is too far from a road.
    public func table(fromSnapped places: SnappedPlaces, at indices: [Int?], to target: Coordinate,
                      depart: Date) throws -> [TravelEstimate?] {
        let metric = metric(departing: depart)
        let to = try targetEndpoint(target, metric)
        let targetRoads = TargetRoads(to.candidates, tails: snapper.edgeTail, graph: graph)
        let estimate = { (candidates: UnsafeBufferPointer<SnappedPlaces.Candidate>, cell: TableCell) -> TravelEstimate? in
            guard targetRoads.containsRoad(ofAnyOf: candidates) else { return self.estimate(cell, direct: nil) }
            return self.estimate(cell, direct: self.directDrive(from: candidates, to: to.candidates, metric: metric))
        }
        return places.withCandidates(at: indices) { sources in
            guard sources.count * Self.sourcesPerNodeForSweepingEveryNode < topology.nodeCount else {
                return estimatesFromEveryNode(sources, to: to, metric: metric, estimate: estimate)
            }
            let cells = cellsFromSelection(sources, to: to, metric: metric)
            return zip(sources, cells).map { candidates, cell in candidates.isEmpty ? nil : estimate(candidates, cell) }
        }
    }

    /// A table sweeps every node once its sources number at least one per
    /// this many nodes: their seeds (some six per taxi) and those seeds'
    /// ancestors then cover most of the graph, and building the selection
    /// costs more than the nodes it leaves out (2,000 taxis on the 6,262
    /// nodes of the Midtown map select 88 % of them).
    static let sourcesPerNodeForSweepingEveryNode = 8

    /// Each source's `estimate` from its graph-search cell, the best of its
    /// seeds read from the times from every node to `target`.
    private func estimatesFromEveryNode(_ sources: [UnsafeBufferPointer<SnappedPlaces.Candidate>], to target: SnappedEndpoint,
                                        metric: CCHMetric,
                                        estimate: (UnsafeBufferPointer<SnappedPlaces.Candidate>, TableCell) -> TravelEstimate?)
        -> [TravelEstimate?] {
        withQuery { query in
            query.withTimesFromEveryNode(to: target.seeds, metric: metric) { durations, lengths in
                topology.rank.withUnsafeBufferPointer { rank in
                    sources.map { candidates in
                        guard !candidates.isEmpty else { return nil }
                        var cell = TableCell.unreachable
                        for candidate in candidates {
                            forEachSourceSeed(candidate, metric) { seed, _, _ in
                                let at = Int(rank[Int(seed.node)])
                                let total = UInt64(durations[at]) + UInt64(seed.offsetMs)
                                if total < UInt64(cell.durationMs) {
                                    cell = TableCell(durationMs: UInt32(total), lengthMetres: lengths[at] + seed.offsetMetres)
                                }
                            }
                        }
                        return estimate(candidates, cell)
                    }
                }
            }
        }
    }

    /// The graph-search cell of each source, from one many-to-one table
    /// over the selection of its seeds' ancestors.
    private func cellsFromSelection(_ sources: [UnsafeBufferPointer<SnappedPlaces.Candidate>], to target: SnappedEndpoint,
                                    metric: CCHMetric) -> [TableCell] {
        var seeds: [SearchSeed] = [], firstSeed: [UInt32] = [0]
        seeds.reserveCapacity(sources.count * 4)
        firstSeed.reserveCapacity(sources.count + 1)
        for candidates in sources {
            for candidate in candidates {
                forEachSourceSeed(candidate, metric) { seed, _, _ in seeds.append(seed) }
            }
            firstSeed.append(UInt32(seeds.count))
        }
        let selection = CCHSelection(topology: topology, seeds: seeds, firstSeed: firstSeed)
        return withQuery { $0.manyToOne(from: selection, to: target.seeds, metric: metric) }
    }
}
