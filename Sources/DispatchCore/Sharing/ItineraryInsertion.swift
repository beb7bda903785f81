/// Where a new rider's pickup and drop-off go in a taxi's itinerary, when
/// they fit at all (SPEC D10): every place a pair of stops can be put,
/// keeping the other stops' order, is tried, and the one that adds least to
/// the taxi's driving while every rider's bounds and the seats hold wins.
/// The itinerary has a handful of stops, so trying every pair is cheap; the
/// travel times come from one router table per request, made by the caller.
public struct ItineraryInsertion: Equatable, Sendable {
    /// The itinerary with the new rider's two stops in it.
    public let stops: [SharedStop]
    /// When the taxi reaches each stop (engine time), in the itinerary's order.
    public let arrivals: [Duration]
    /// The driving the new rider adds to the itinerary.
    public let addedDriving: Duration
    /// Where the new pickup went: the index in ``stops``.
    public let pickupIndex: Int
    /// Where the new drop-off went: the index in ``stops``.
    public let dropoffIndex: Int

    /// When the taxi picks the new rider up.
    public var pickupAt: Duration { arrivals[pickupIndex] }
    /// When it drops the new rider off.
    public var dropoffAt: Duration { arrivals[dropoffIndex] }

    /// The taxi, where it is and what it carries, with its itinerary.
    public struct Taxi: Sendable {
        /// The place the taxi is at (an index of the travel times' places).
        public var place: Int
        /// The passengers it carries.
        public var capacity: Int
        /// The stops still to make, in order.
        public var stops: [SharedStop]
        /// The riders of those stops (and those aboard), by ride.
        public var riders: [RideRequestID: SharedRider]
        /// How many of the first stops keep their place: the taxi is bound
        /// for them whatever joins (0: it may turn off for a new pickup at once).
        public var committed: Int

        /// A taxi at `place` of `capacity` seats with `stops` still to make
        /// for `riders`, the first `committed` of them kept first.
        public init(place: Int, capacity: Int, stops: [SharedStop], riders: [RideRequestID: SharedRider], committed: Int = 0) {
            self.place = place
            self.capacity = capacity
            self.stops = stops
            self.riders = riders
            self.committed = min(max(committed, 0), stops.count)
        }
    }

    /// The cheapest insertion of `rider`'s pickup at `pickup` and drop-off
    /// at `dropoff` into `taxi`'s itinerary at `now`; nil when no insertion
    /// keeps every rider's bounds and the seats, or a leg cannot be driven.
    /// `travel(from, to)` is the driving time between two places, nil when
    /// there is no route.
    public static func cheapest(
        of rider: SharedRider, pickup: Int, dropoff: Int, into taxi: Taxi, now: Duration,
        travel: (Int, Int) -> Duration?
    ) -> ItineraryInsertion? {
        var riders = taxi.riders
        riders[rider.ride] = rider
        guard let before = schedule(taxi.stops, from: taxi.place, now: now, travel: travel) else { return nil }
        let drivingBefore = (before.last ?? now) - now
        var best: ItineraryInsertion?
        for pickupIndex in taxi.committed...taxi.stops.count {
            for dropoffIndex in (pickupIndex + 1)...(taxi.stops.count + 1) {
                var stops = taxi.stops
                stops.insert(SharedStop(ride: rider.ride, kind: .pickup, place: pickup), at: pickupIndex)
                stops.insert(SharedStop(ride: rider.ride, kind: .dropoff, place: dropoff), at: dropoffIndex)
                guard let arrivals = schedule(stops, from: taxi.place, now: now, travel: travel),
                      keepsBounds(stops, arrivals, riders: riders, capacity: taxi.capacity)
                else { continue }
                let added = (arrivals.last ?? now) - now - drivingBefore
                if best.map({ (added, arrivals[pickupIndex]) < ($0.addedDriving, $0.pickupAt) }) ?? true {
                    best = ItineraryInsertion(
                        stops: stops, arrivals: arrivals, addedDriving: added, pickupIndex: pickupIndex, dropoffIndex: dropoffIndex)
                }
            }
        }
        return best
    }

    /// When the taxi, leaving `place` at `now`, reaches each of `stops`;
    /// nil when a leg has no route.
    public static func schedule(_ stops: [SharedStop], from place: Int, now: Duration, travel: (Int, Int) -> Duration?) -> [Duration]? {
        var arrivals: [Duration] = []
        arrivals.reserveCapacity(stops.count)
        var (here, time) = (place, now)
        for stop in stops {
            guard let leg = travel(here, stop.place) else { return nil }
            time += leg
            arrivals.append(time)
            here = stop.place
        }
        return arrivals
    }

    /// Whether `stops` reached at `arrivals` keep each rider's latest pickup
    /// and longest ride, and never carry more than `capacity` seats.
    public static func keepsBounds(
        _ stops: [SharedStop], _ arrivals: [Duration], riders: [RideRequestID: SharedRider], capacity: Int
    ) -> Bool {
        var pickedUp: [RideRequestID: Duration] = [:]
        // Riders aboard now: dropped off ahead, with no pickup ahead.
        let waiting = Set(stops.lazy.filter { $0.kind == .pickup }.map(\.ride))
        var load = stops.lazy.filter { $0.kind == .dropoff && !waiting.contains($0.ride) }
            .reduce(0) { $0 + (riders[$1.ride]?.seats ?? 1) }
        guard load <= capacity else { return false }
        for (stop, arrival) in zip(stops, arrivals) {
            guard let rider = riders[stop.ride] else { return false }
            switch stop.kind {
            case .pickup:
                guard arrival <= rider.latestPickup else { return false }
                pickedUp[stop.ride] = arrival
                load += rider.seats
                guard load <= capacity else { return false }
            case .dropoff:
                guard let since = pickedUp[stop.ride] ?? rider.pickedUpAt, arrival - since <= rider.longestRide else { return false }
                load -= rider.seats
            }
        }
        return true
    }
}
