import DispatchCore
import FixRecords
import GeoKit
import Routing
import ServiceClock
import Zones

/// What a shared request would be told before it is made (SPEC D10).
public struct SharedQuote: Sendable, Equatable {
    /// The taxi on a shared ride it would join; nil: it would be served alone.
    public let joining: TaxiID?
    /// How soon a taxi would come; nil when there is no estimate.
    public let pickupIn: Duration?
    /// The most its trip may take beyond the trip alone.
    public let maximumAddedDelay: Duration
}

/// Shared rides on the dispatcher (SPEC D10): matching a shared request to
/// a taxi already on a shared ride before the request reaches the engine,
/// so that the log holds the decision and a replay makes the same; and
/// keeping every rider's ETA along the itinerary.
extension Dispatcher {
    /// The most taxis on shared rides a request is matched against, nearest first.
    public static let sharingCandidates = 30

    /// A passenger asks to share a taxi from `pickup` to `destination`, a
    /// trip of `directTrip` alone: it joins the taxi on a shared ride that
    /// can take it with the least added driving, within every rider's
    /// bounds, unless a taxi of its own would come more than
    /// ``SharingRules/longerWaitToShare`` sooner; otherwise it is served
    /// as any request, and later riders may join its taxi. Answers as
    /// ``execute(_:idempotencyKey:)``.
    @discardableResult
    public func requestShared(
        _ passenger: PassengerID, pickup: Coordinate, zone: ZoneID?, destination: Coordinate, walk: PickupWalk? = nil,
        seats: Int? = nil, directTrip: Duration, idempotencyKey: String? = nil
    ) async throws(DispatcherError) -> [DispatchEvent] {
        let now = engineTime
        let answeredBefore = idempotencyKey.map { answered[$0] != nil } ?? false
        let match = answeredBefore || zone == nil
            ? nil : sharedMatch(from: pickup, in: zone, to: destination, seats: seats ?? 1, directTrip: directTrip, now: now)
        let join = match.map {
            RideSharing.Join(
                taxi: $0.taxi, pickupIndex: $0.insertion.pickupIndex, dropoffIndex: $0.insertion.dropoffIndex, eta: $0.insertion.pickupAt - now)
        }
        let command = DispatchCommand.request(
            passenger, pickup: pickup, zone: zone, destination: destination, walk: walk, seats: seats,
            sharing: RideSharing(directTrip: directTrip, join: join))
        let (events, durability) = try begin(command, idempotencyKey: idempotencyKey)
        if !answeredBefore, let match, let join,
           events.contains(where: { if case .riderJoined(_, join.taxi, _) = $0 { true } else { false } }),
           let stops = engine.snapshot.taxis[join.taxi]?.itinerary {
            sharedPlans.plan(join.taxi, stops: stops, arrivals: match.insertion.arrivals)
            tellWaitingRiders(of: join.taxi)
        }
        return try await durable(events, durability)
    }

    /// What a shared request from `pickup` in `zone` to `destination` would
    /// be told now, without making it (SPEC D10): when a taxi comes, either
    /// one on a shared ride it would join or, when none would, the zone's
    /// expected wait alone (nil: no estimate); and the most its trip may
    /// take beyond `directTrip`.
    public func sharedQuote(
        from pickup: Coordinate, in zone: ZoneID, to destination: Coordinate, seats: Int, directTrip: Duration
    ) -> SharedQuote {
        let now = engineTime
        let match = sharedMatch(from: pickup, in: zone, to: destination, seats: seats, directTrip: directTrip, now: now)
        return SharedQuote(
            joining: match?.taxi, pickupIn: match.map { $0.insertion.pickupAt - now } ?? expectedWait(at: pickup, in: zone),
            maximumAddedDelay: rules.sharing.longestRide(direct: directTrip) - directTrip)
    }

    /// The taxi on a shared ride a rider from `pickup` in `zone` would join,
    /// when one can take it and comes no more than
    /// ``SharingRules/longerWaitToShare`` later than a taxi of its own.
    private func sharedMatch(
        from pickup: Coordinate, in zone: ZoneID?, to destination: Coordinate, seats: Int, directTrip: Duration, now: Duration
    ) -> SharedRideMatcher.Match? {
        guard let match = matchSharedRider(from: pickup, to: destination, seats: seats, directTrip: directTrip, now: now) else { return nil }
        let alone = zone.flatMap { expectedWait(at: pickup, in: $0) }
        return rules.sharing.joins(sharedPickupIn: match.insertion.pickupAt - now, aloneIn: alone) ? match : nil
    }

    /// The best match for a rider of `seats` among the taxis on shared
    /// rides nearest `pickup`, nil when none can take it or no matcher is set.
    func matchSharedRider(
        from pickup: Coordinate, to destination: Coordinate, seats: Int, directTrip: Duration, now: Duration
    ) -> SharedRideMatcher.Match? {
        guard let sharing else { return nil }
        let snapshot = engine.snapshot
        let sharingTaxis = snapshot.taxis.filter { !$0.value.itinerary.isEmpty && $0.value.staleSince == nil }.keys.sorted()
        let nearest = zip(sharingTaxis, positions.positions(of: sharingTaxis)).compactMap { taxi, position in
            position.map { (taxi: taxi, position: $0, metres: $0.haversineDistance(to: pickup)) }
        }.sorted { ($0.metres, $0.taxi) < ($1.metres, $1.taxi) }.prefix(Self.sharingCandidates)
        let candidates = nearest.compactMap { candidate(of: $0.taxi, at: $0.position, in: snapshot, now: now) }
        let rider = SharedRider(
            ride: RideRequestID(snapshot.nextRequestNumber), seats: seats, requestedAt: now, direct: directTrip, rules: rules.sharing)
        return try? sharing.best(for: rider, pickup: pickup, dropoff: destination, among: candidates, now: now, depart: clock.now)
    }

    /// `taxi` at `position` as a candidate, with its planned legs; nil
    /// without a plan of its current stops. A taxi standing at a pickup
    /// keeps that stop first.
    private func candidate(of taxi: TaxiID, at position: Coordinate, in snapshot: DispatchSnapshot, now: Duration) -> SharingCandidate? {
        guard let record = snapshot.taxis[taxi], let arrivals = sharedPlans.arrivals(of: taxi, at: record.itinerary) else { return nil }
        var itinerary: [(ride: RideRequestID, kind: SharedStop.Kind, at: Coordinate, leg: Duration)] = []
        var riders: [RideRequestID: SharedRider] = [:]
        var previous = now
        for (stop, arrival) in zip(record.itinerary, arrivals) {
            guard let rider = snapshot.requests[stop.ride]?.sharedRider, let at = snapshot.place(of: stop) else {
                return nil
            }
            itinerary.append((stop.ride, stop.kind, at, max(.zero, arrival - previous)))
            previous = max(previous, arrival)
            riders[stop.ride] = rider
        }
        let standing = if let first = record.itinerary.first, case .arrived = snapshot.requests[first.ride]?.phase { 1 } else { 0 }
        return SharingCandidate(
            taxi: taxi, position: position, capacity: record.seats, itinerary: itinerary, riders: riders, committedStops: standing)
    }

    /// After an accepted offer in `events`: a shared request's taxi is
    /// planned at its pickup at the told ETA and at its destination a
    /// direct trip later.
    func planSharedRide(accepted events: [DispatchEvent]) {
        let now = engineTime
        for case .offerAccepted(let id, let taxi, let eta) in events {
            guard let stops = engine.snapshot.taxis[taxi]?.itinerary, stops.count == 2,
                  let direct = engine.snapshot.requests[id]?.sharedRider?.directTrip else { continue }
            let pickupAt = now + (eta ?? .zero)
            sharedPlans.plan(taxi, stops: stops, arrivals: [pickupAt, pickupAt + direct])
        }
    }

    /// Tells each rider `taxi` has still to pick up the ETA of its plan
    /// (the engine tells only one that moved by more than the threshold).
    private func tellWaitingRiders(of taxi: TaxiID) {
        let now = engineTime
        guard let plan = sharedPlans.plan(of: taxi) else { return }
        for (stop, arrival) in zip(plan.stops, plan.arrivals) where stop.kind == .pickup {
            guard case .assigned = engine.snapshot.requests[stop.ride]?.phase else { continue }
            _ = try? begin(.updateETA(stop.ride, eta: max(.zero, arrival - now)))
        }
    }

    /// Follows every taxi on a shared ride from its latest fix (SPEC D6,
    /// D10): at its next stop, a pickup, it has arrived for that rider;
    /// otherwise its plan moves with the router's ETA to that stop, and each
    /// rider still to be picked up is told the ETA of its own pickup.
    func trackSharedRides() async {
        let snapshot = engine.snapshot
        let now = engineTime
        for (taxi, record) in snapshot.taxis.filter({ !$0.value.itinerary.isEmpty }).sorted(by: { $0.key < $1.key }) {
            guard let first = record.itinerary.first, let request = snapshot.requests[first.ride],
                  let target = request.place(of: first.kind), let position = positions.position(of: taxi) else { continue }
            if first.kind == .pickup, case .assigned = request.phase, position.haversineDistance(to: target) <= Self.arrivalRadiusMetres {
                _ = try? await execute(.arrived(taxi, rider: first.ride))
                continue
            }
            guard let eta = etas.eta(from: taxi, to: target, depart: clock.now) else { continue }
            if sharedPlans.arrivals(of: taxi, at: record.itinerary) == nil {
                planAgain(taxi, stops: record.itinerary, firstArrival: now + eta, in: snapshot)
            } else {
                sharedPlans.move(taxi, firstArrival: now + eta)
            }
            tellWaitingRiders(of: taxi)
        }
    }

    /// Plans `stops` anew (after a restart, or a rider's stops dropped
    /// mid-way) from the taxi's ETA to the first and the router's drive
    /// between the others.
    private func planAgain(_ taxi: TaxiID, stops: [ItineraryStop], firstArrival: Duration, in snapshot: DispatchSnapshot) {
        guard let router = sharing?.router else { return }
        let places = stops.compactMap(snapshot.place(of:))
        guard places.count == stops.count else { return }
        var arrivals = [firstArrival]
        for (from, to) in zip(places, places.dropFirst()) {
            guard let route = try? router.route(from: from, to: to, depart: clock.now) else { return }
            arrivals.append(arrivals[arrivals.count - 1] + .milliseconds(Int64((route.durationSeconds * 1000).rounded())))
        }
        sharedPlans.plan(taxi, stops: stops, arrivals: arrivals)
    }
}
