import DispatchCore
import FixRecords
import Foundation
import GeoKit
import Routing

/// The taxi a shared request joins, and where its stops go (SPEC D10): one
/// router table per request, whatever the number of candidates, then the
/// cheapest insertion into each candidate's itinerary
/// (``ItineraryInsertion``), the least added driving winning.
///
/// The table is four queries over every candidate's places: the times from
/// each to the pickup and to the drop-off (many-to-one), and from the
/// pickup and the drop-off to each (one-to-many); the legs already planned
/// are not asked again. The candidates are the caller's choice (the pickup
/// zone's queue first, then taxis nearby).
public struct SharedRideMatcher: Sendable {
    /// The taxi, and its itinerary with the new rider in it.
    public struct Match: Sendable {
        /// The taxi that takes the rider.
        public let taxi: TaxiID
        /// Its itinerary with the rider's stops, their arrivals and the driving added.
        public let insertion: ItineraryInsertion
        /// The places of the itinerary's stops, as the candidate gave them,
        /// then the new pickup and drop-off.
        public let places: [Coordinate]
    }

    /// The router the table is asked of.
    public let router: RoadRouter

    /// A matcher asking `router` for the table.
    public init(router: RoadRouter) {
        self.router = router
    }

    /// The candidate that takes `rider`, picked up at `pickup` and dropped
    /// at `dropoff`, with the least added driving, at `now` (engine time) and
    /// `depart` (the hour's speeds); nil when none can take it within every
    /// rider's bounds.
    /// - Throws: ``SnapError`` when the pickup or the drop-off is too far from a road.
    public func best(
        for rider: SharedRider, pickup: Coordinate, dropoff: Coordinate, among candidates: [SharingCandidate], now: Duration, depart: Date
    ) throws -> Match? {
        guard !candidates.isEmpty else { return nil }
        let everyPlace = candidates.flatMap(\.places)
        let toPickup = try router.table(from: everyPlace, to: pickup, depart: depart)
        let toDropoff = try router.table(from: everyPlace + [pickup], to: dropoff, depart: depart)
        let fromPickup = try router.table(from: pickup, to: everyPlace, depart: depart)
        let fromDropoff = try router.table(from: dropoff, to: everyPlace, depart: depart)
        let direct = toDropoff[everyPlace.count].map { Duration.seconds($0.durationSeconds) }
        var best: Match?
        var offset = 0
        for candidate in candidates {
            defer { offset += candidate.places.count }
            let (newPickup, newDropoff) = (candidate.places.count, candidate.places.count + 1)
            let base = offset
            let seconds = { (estimate: TravelEstimate?) in estimate.map { Duration.seconds($0.durationSeconds) } }
            let known = candidate.places.indices
            let travel = { (from: Int, to: Int) -> Duration? in
                switch (from, to) {
                case (newPickup, newDropoff): direct
                case (newPickup, _) where known.contains(to): seconds(fromPickup[base + to])
                case (newDropoff, _) where known.contains(to): seconds(fromDropoff[base + to])
                case (_, newPickup) where known.contains(from): seconds(toPickup[base + from])
                case (_, newDropoff) where known.contains(from): seconds(toDropoff[base + from])
                case _ where known.contains(from) && known.contains(to) && to == from + 1: candidate.legs[from]
                default: nil
                }
            }
            let taxi = ItineraryInsertion.Taxi(
                place: 0, capacity: candidate.capacity, stops: candidate.stops, riders: candidate.riders,
                committed: candidate.committedStops)
            guard let insertion = ItineraryInsertion.cheapest(
                of: rider, pickup: newPickup, dropoff: newDropoff, into: taxi, now: now, travel: travel)
            else { continue }
            if best.map({ (insertion.addedDriving, insertion.pickupAt) < ($0.insertion.addedDriving, $0.insertion.pickupAt) }) ?? true {
                best = Match(taxi: candidate.taxi, insertion: insertion, places: candidate.places + [pickup, dropoff])
            }
        }
        return best
    }
}
