import DispatchCore
import Foundation
import GeoKit
import PropertyBased
import Testing

/// Where a new rider's stops go in a shared taxi's itinerary (SPEC D10):
/// on the way when that costs nothing, never past a rider's bounds or the
/// seats, and always the cheapest insertion that keeps them.
@Suite(.timeLimit(.minutes(20))) struct ItineraryInsertionTests {
    static let rules = SharingRules()
    /// Places on a straight street a minute apart: place 3 is 3 minutes from place 0.
    static func street(_ from: Int, _ to: Int) -> Duration? { .seconds(60 * abs(from - to)) }

    static func rider(_ ride: Int, seats: Int = 1, requestedAt: Duration = .zero, direct: Duration, aboardSince: Duration? = nil) -> SharedRider {
        SharedRider(ride: RideRequestID(ride), seats: seats, requestedAt: requestedAt, direct: direct, rules: rules, pickedUpAt: aboardSince)
    }

    static func stop(_ ride: Int, _ kind: SharedStop.Kind, _ place: Int) -> SharedStop {
        SharedStop(ride: RideRequestID(ride), kind: kind, place: place)
    }

    @Test func aRiderOnTheWayJoinsAtNoCostToTheTaxi() throws {
        // R1 rides from 0 to 10; R2 goes from 2 to 8, on the way.
        let taxi = ItineraryInsertion.Taxi(
            place: 0, capacity: 4, stops: [Self.stop(1, .dropoff, 10)], riders: [RideRequestID(1): Self.rider(1, direct: .seconds(600), aboardSince: .zero)])
        let joined = try #require(ItineraryInsertion.cheapest(
            of: Self.rider(2, direct: .seconds(360)), pickup: 2, dropoff: 8, into: taxi, now: .zero, travel: Self.street))
        #expect(joined.stops == [Self.stop(2, .pickup, 2), Self.stop(2, .dropoff, 8), Self.stop(1, .dropoff, 10)])
        #expect(joined.addedDriving == .zero)
        #expect(joined.pickupAt == .seconds(120) && joined.dropoffAt == .seconds(480))
    }

    @Test func theSeatsDecideWhetherRidersOverlap() throws {
        // Three seats taken to place 10: a party of two rides after them, never beside them.
        let taxi = ItineraryInsertion.Taxi(
            place: 0, capacity: 4, stops: [Self.stop(1, .dropoff, 10)],
            riders: [RideRequestID(1): Self.rider(1, seats: 3, direct: .seconds(600), aboardSince: .zero)])
        let after = try #require(ItineraryInsertion.cheapest(
            of: Self.rider(2, seats: 2, direct: .seconds(120)), pickup: 10, dropoff: 12, into: taxi, now: .zero, travel: Self.street))
        #expect(after.stops == [Self.stop(1, .dropoff, 10), Self.stop(2, .pickup, 10), Self.stop(2, .dropoff, 12)])
        #expect(ItineraryInsertion.cheapest(
            of: Self.rider(3, seats: 2, direct: .seconds(360)), pickup: 2, dropoff: 8, into: taxi, now: .zero, travel: Self.street) == nil,
            "picked up at 2 minutes, it would wait past 10 minutes for R1 to get out first")
    }

    @Test func noRiderIsDelayedPastTheBound() {
        // R1's 10-minute ride may take 15; a pickup 4 minutes back the other way costs it 8 more.
        let taxi = ItineraryInsertion.Taxi(
            place: 0, capacity: 4, stops: [Self.stop(1, .dropoff, 10)], riders: [RideRequestID(1): Self.rider(1, direct: .seconds(600), aboardSince: .zero)])
        #expect(ItineraryInsertion.cheapest(
            of: Self.rider(2, direct: .seconds(240)), pickup: -4, dropoff: 0, into: taxi, now: .zero, travel: Self.street) == nil)
        #expect(ItineraryInsertion.cheapest(
            of: Self.rider(2, direct: .seconds(120)), pickup: -2, dropoff: 0, into: taxi, now: .zero, travel: Self.street) != nil,
            "4 minutes more is within R1's 5")
    }

    @Test func aPickupPastTheLongestWaitIsRefused() {
        let taxi = ItineraryInsertion.Taxi(place: 0, capacity: 4, stops: [], riders: [:])
        #expect(ItineraryInsertion.cheapest(
            of: Self.rider(1, direct: .seconds(60)), pickup: 11, dropoff: 12, into: taxi, now: .zero, travel: Self.street) == nil,
            "11 minutes to the pickup, 10 at most")
        #expect(ItineraryInsertion.cheapest(of: Self.rider(1, direct: .seconds(60)), pickup: 9, dropoff: 10, into: taxi, now: .zero,
                                            travel: { $0 == 9 && $1 == 10 ? nil : Self.street($0, $1) }) == nil, "no route to the drop-off")
    }

    /// Riders added one by one to taxis at random places in a plane: after
    /// each one, every rider's pickup comes before the drop-off, no stop
    /// carries more than the seats, every bound holds on the new schedule,
    /// the stops before keep their order, and no other insertion that keeps
    /// the bounds drives less.
    @Test func everyInsertionKeepsTheBoundsAndIsTheCheapest() async {
        await propertyCheck(count: 200, input: Gen.uint64()) { seed in
            var random = SplitMix64(state: seed)
            let places = (0..<24).map { _ in (x: Double.random(in: 0...3_000, using: &random), y: Double.random(in: 0...3_000, using: &random)) }
            // 10 m/s along the straight line, to the second: a metric, as road times nearly are.
            let travel: (Int, Int) -> Duration? = { a, b in
                .seconds(Int((hypot(places[a].x - places[b].x, places[a].y - places[b].y) / 10).rounded()))
            }
            let capacity = Int.random(in: 2...4, using: &random)
            var taxi = ItineraryInsertion.Taxi(place: 0, capacity: capacity, stops: [], riders: [:])
            for ride in 1...6 {
                let (pickup, dropoff) = (Int.random(in: 1..<24, using: &random), Int.random(in: 1..<24, using: &random))
                guard pickup != dropoff, let direct = travel(pickup, dropoff) else { continue }
                let rider = SharedRider(
                    ride: RideRequestID(ride), seats: Int.random(in: 1...2, using: &random), requestedAt: .zero, direct: direct, rules: Self.rules)
                guard let joined = ItineraryInsertion.cheapest(of: rider, pickup: pickup, dropoff: dropoff, into: taxi, now: .zero, travel: travel)
                else { continue }
                var riders = taxi.riders
                riders[rider.ride] = rider
                try Self.check(joined, before: taxi.stops, riders: riders, capacity: capacity, travel: travel)
                let keeps = { (stops: [SharedStop]) in Self.keeps(stops, riders: riders, capacity: capacity, travel: travel) }
                let cheaper = Self.everyInsertion(of: rider, pickup: pickup, dropoff: dropoff, into: taxi, travel: travel)
                    .filter { $0.driving < (joined.arrivals.last ?? .zero) && keeps($0.stops) }
                #expect(cheaper.isEmpty, "a cheaper insertion keeps the bounds: \(cheaper.first.map { "\($0.stops)" } ?? "")")
                taxi.stops = joined.stops
                taxi.riders = riders
            }
        }
    }

    /// The checks of one insertion, written apart from the planner's own.
    static func check(
        _ joined: ItineraryInsertion, before: [SharedStop], riders: [RideRequestID: SharedRider], capacity: Int, travel: (Int, Int) -> Duration?
    ) throws {
        #expect(joined.stops.filter { before.contains($0) } == before, "the stops before keep their order")
        let kept = keeps(joined.stops, riders: riders, capacity: capacity, travel: travel)
        #expect(kept, "every rider's bounds and the seats hold")
    }

    /// Whether `stops`, driven from place 0 at time zero, pick each rider up
    /// before dropping it off, within its wait and ride bounds, and never carry more than `capacity`.
    static func keeps(_ stops: [SharedStop], riders: [RideRequestID: SharedRider], capacity: Int, travel: (Int, Int) -> Duration?) -> Bool {
        var (time, place, load) = (Duration.zero, 0, 0)
        var pickedUp: [RideRequestID: Duration] = [:]
        for stop in stops {
            guard let leg = travel(place, stop.place), let rider = riders[stop.ride] else { return false }
            (time, place) = (time + leg, stop.place)
            if stop.kind == .pickup {
                guard pickedUp[stop.ride] == nil, time <= rider.latestPickup else { return false }
                pickedUp[stop.ride] = time
                load += rider.seats
            } else {
                guard let since = pickedUp[stop.ride], time - since <= rider.longestRide else { return false }
                load -= rider.seats
            }
            if load > capacity { return false }
        }
        return true
    }

    /// Every way to put the rider's two stops in, pickup first, with the time the whole itinerary then takes.
    static func everyInsertion(
        of rider: SharedRider, pickup: Int, dropoff: Int, into taxi: ItineraryInsertion.Taxi, travel: (Int, Int) -> Duration?
    ) -> [(stops: [SharedStop], driving: Duration)] {
        var found: [(stops: [SharedStop], driving: Duration)] = []
        for i in 0...taxi.stops.count {
            for j in (i + 1)...(taxi.stops.count + 1) {
                var stops = taxi.stops
                stops.insert(SharedStop(ride: rider.ride, kind: .pickup, place: pickup), at: i)
                stops.insert(SharedStop(ride: rider.ride, kind: .dropoff, place: dropoff), at: j)
                var (time, place) = (Duration.zero, taxi.place)
                for stop in stops {
                    time += travel(place, stop.place) ?? .seconds(1_000_000)
                    place = stop.place
                }
                found.append((stops, time))
            }
        }
        return found
    }
}
