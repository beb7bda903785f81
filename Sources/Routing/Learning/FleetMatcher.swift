import Foundation
import GeoKit

/// Matches each taxi's consecutive fixes to the road graph, fix by fix, as
/// a hidden Markov model (Newson and Krumm, 2009): the hidden states are the
/// roads near each fix (both directions of a two-way road), a fix is likely
/// on a road it is close to (Gaussian in the distance), and a pair of roads
/// is likely when the shortest drive between them is about as long as the
/// straight line between the fixes (exponential in the difference) and
/// could be driven in the time between them.
///
/// Matching is online: a taxi's track keeps the score of every candidate
/// road of its last fix; a new fix extends the best of them (Viterbi's
/// step), and the drive from the previous fix's best candidate for it to
/// the new fix's best candidate is the matched leg. The previous fix's
/// choice is thus made with one fix of hindsight.
///
/// Not thread-safe: one matcher belongs to one learner.
public final class FleetMatcher {
    /// The graph matched on.
    public let graph: RoadGraph
    /// The settings in force.
    public let settings: MapMatchSettings
    private let snapper: Snapper
    private let paths: NearbyPaths
    private var tracks: [String: Track] = [:]

    /// A matcher on the roads of `router`.
    public init(router: RoadRouter, settings: MapMatchSettings = MapMatchSettings()) {
        graph = router.graph
        snapper = router.snapper
        self.settings = settings
        paths = NearbyPaths(graph: router.graph, edgeTail: router.snapper.edgeTail)
    }

    /// Matches `taxi`'s fix at `coordinate`, taken at `time`, against its
    /// previous one. `mayBeWaiting` says the taxi may stand on purpose (free
    /// at a rank, at a pickup, or in a state nobody told): then a move
    /// shorter than ``MapMatchSettings/standingMetres`` is standing, not a
    /// drive. A taxi on a ride that barely moves is in traffic, and is learned from.
    public func match(taxi: String, at coordinate: Coordinate, time: Date, mayBeWaiting: Bool = true) -> MatchOutcome {
        let candidates = self.candidates(coordinate)
        guard !candidates.isEmpty else {
            tracks[taxi] = nil
            return .unmatched(.offRoad)
        }
        let fresh = Track(coordinate: coordinate, time: time, candidates: candidates,
                          scores: candidates.map { emission($0.distanceMetres) })
        guard let previous = tracks[taxi] else {
            tracks[taxi] = fresh
            return .unmatched(.first)
        }
        let seconds = time.timeIntervalSince(previous.time)
        guard seconds >= settings.minIntervalSeconds, seconds <= settings.maxIntervalSeconds else {
            tracks[taxi] = seconds < 0 ? previous : fresh
            return .unmatched(.gap)
        }
        let straight = previous.coordinate.haversineDistance(to: coordinate)
        guard straight >= settings.standingMetres || !mayBeWaiting else {
            tracks[taxi] = fresh
            return .unmatched(.standing)
        }
        guard let step = viterbiStep(from: previous, to: fresh, straightMetres: straight, seconds: seconds) else {
            tracks[taxi] = fresh
            return .unmatched(.jump)
        }
        tracks[taxi] = step.track
        return .matched(MatchedLeg(edges: step.edges, departure: previous.time, seconds: seconds, metres: step.metres))
    }

    /// Forgets the tracks of taxis not heard from since `date`.
    public func forgetTracks(before date: Date) {
        tracks = tracks.filter { $0.value.time >= date }
    }

    // MARK: The model

    /// A road position a fix may be on, in one direction of travel.
    struct Candidate {
        var edge: Int
        /// From the edge's tail (0) to its head (1).
        var fraction: Double
        var distanceMetres: Double
    }

    /// A taxi's last fix and the score of each of its candidates (log-probabilities, the best at 0).
    struct Track {
        var coordinate: Coordinate
        var time: Date
        var candidates: [Candidate]
        var scores: [Double]
    }

    /// The roads near `coordinate`, each direction of a two-way road apart.
    private func candidates(_ coordinate: Coordinate) -> [Candidate] {
        guard let snaps = snapper.candidatesIfNear(
            coordinate, maxDistanceMetres: settings.candidateRadiusMetres,
            radiusMetres: settings.candidateRadiusMetres, limit: settings.maxCandidates) else { return [] }
        var candidates: [Candidate] = []
        for snap in snaps {
            if graph.edgeDurationMs[snap.edge] != unreachableMs {
                candidates.append(Candidate(edge: snap.edge, fraction: snap.fraction, distanceMetres: snap.distanceMetres))
            }
            let tail = snapper.edgeTail[snap.edge]
            for twin in graph.edges(from: Int(graph.edgeHead[snap.edge]))
            where graph.edgeHead[twin] == tail && graph.edgeDurationMs[twin] != unreachableMs {
                candidates.append(Candidate(edge: twin, fraction: 1 - snap.fraction, distanceMetres: snap.distanceMetres))
            }
        }
        return candidates
    }

    /// The log-likelihood of a fix `metres` from a road.
    private func emission(_ metres: Double) -> Double {
        let z = metres / settings.gpsSigmaMetres
        return -0.5 * z * z
    }

    /// One Viterbi step from `previous` to `next`: the new scores, and the
    /// drive behind the best new candidate; nil when no pair of candidates
    /// is joined by a drive possible in `seconds`.
    private func viterbiStep(from previous: Track, to next: Track, straightMetres: Double, seconds: Double)
        -> (track: Track, edges: [DrivenEdge], metres: Double)? {
        let limit = min(straightMetres * 1.5 + 2 * settings.transitionScaleMetres, seconds * settings.maxSpeedMetresPerSecond)
        var best = [(score: Double, from: Int, metres: Double, alongOneEdge: Bool)?](repeating: nil, count: next.candidates.count)
        var searchedFrom = -1
        for (i, from) in previous.candidates.enumerated() {
            let head = Int(graph.edgeHead[from.edge])
            let rest = Double(graph.edgeLengthMetres[from.edge]) * (1 - from.fraction)
            for (j, to) in next.candidates.enumerated() {
                let metres: Double
                let alongOneEdge = to.edge == from.edge && to.fraction >= from.fraction
                if alongOneEdge {
                    metres = Double(graph.edgeLengthMetres[from.edge]) * (to.fraction - from.fraction)
                } else {
                    if searchedFrom != head {
                        paths.search(from: head, limitMetres: max(limit - rest, 0))
                        searchedFrom = head
                    }
                    guard let between = paths.metres(to: Int(snapper.edgeTail[to.edge])) else { continue }
                    metres = rest + between + Double(graph.edgeLengthMetres[to.edge]) * to.fraction
                }
                guard metres <= seconds * settings.maxSpeedMetresPerSecond else { continue }
                let score = previous.scores[i] - abs(metres - straightMetres) / settings.transitionScaleMetres + next.scores[j]
                if best[j].map({ score > $0.score }) ?? true { best[j] = (score, i, metres, alongOneEdge) }
            }
        }
        guard let winner = best.indices.filter({ best[$0] != nil }).max(by: { best[$0]!.score < best[$1]!.score }),
              let chosen = best[winner] else { return nil }
        let from = previous.candidates[chosen.from], to = next.candidates[winner]
        var edges: [DrivenEdge] = []
        if chosen.alongOneEdge {
            let share = to.fraction - from.fraction
            if share > 0 { edges.append(DrivenEdge(edge: from.edge, share: share)) }
        } else {
            let head = Int(graph.edgeHead[from.edge])
            if searchedFrom != head {
                paths.search(from: head, limitMetres: max(limit - Double(graph.edgeLengthMetres[from.edge]) * (1 - from.fraction), 0))
            }
            if from.fraction < 1 { edges.append(DrivenEdge(edge: from.edge, share: 1 - from.fraction)) }
            edges += paths.edges(to: Int(snapper.edgeTail[to.edge])).map { DrivenEdge(edge: $0, share: 1) }
            if to.fraction > 0 { edges.append(DrivenEdge(edge: to.edge, share: to.fraction)) }
        }
        var track = next
        track.scores = best.map { $0.map { $0.score - chosen.score } ?? -.infinity }
        let kept = track.scores.indices.filter { track.scores[$0] > -50 }
        track.candidates = kept.map { track.candidates[$0] }
        track.scores = kept.map { track.scores[$0] }
        return (track, edges, chosen.metres)
    }
}
