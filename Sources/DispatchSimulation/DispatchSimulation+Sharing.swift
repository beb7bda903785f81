import DispatchCore
import DispatchRuntime
import FixRecords
import Foundation
import GeoKit
import Fleet
import Routing
import Zones

/// Shared rides in the simulation (SPEC D10): matching a rider with the
/// service's matcher, and driving a shared taxi's itinerary stop by stop.
extension DispatchSimulation {
    /// The leg a taxi on a shared ride is driving, to its itinerary's first
    /// stop, and the driving times planned for the legs after it.
    struct SharedLeg {
        /// Where the leg started.
        let from: Coordinate
        /// When the taxi reaches the stop.
        let arrivesAt: Duration
        /// The legs after it, as planned, one per later stop.
        var later: [Duration]
    }

    /// The most taxis on shared rides a request is matched against, nearest first.
    static let sharingCandidates = 30
    /// How far past a rider's bound a drive may end before it counts as
    /// broken: legs are timed to the millisecond when planned and driven.
    static let boundSlack = Duration.seconds(1)

    /// The taxi on a shared ride that takes a rider from `pickup` to
    /// `dropoff` (a trip of `direct` alone) with the least added driving,
    /// if any can within every rider's bounds; the time it took is kept.
    mutating func matchSharedRider(from pickup: Coordinate, to dropoff: Coordinate, direct: Duration) -> SharedRideMatcher.Match? {
        let started = ContinuousClock.now
        defer { matchingMilliseconds.append((ContinuousClock.now - started) / .milliseconds(1)) }
        let snapshot = engine.snapshot
        let nearest = sharedLegs.keys.sorted().compactMap { taxi -> (taxi: TaxiID, metres: Double)? in
            guard let stop = snapshot.taxis[taxi]?.itinerary.first, let at = snapshot.place(of: stop) else { return nil }
            return (taxi, at.haversineDistance(to: pickup))
        }.sorted { ($0.metres, $0.taxi) < ($1.metres, $1.taxi) }.prefix(Self.sharingCandidates)
        let candidates = nearest.compactMap { candidate(of: $0.taxi, in: snapshot) }
        let rider = SharedRider(
            ride: RideRequestID(snapshot.nextRequestNumber), seats: 1, requestedAt: now, direct: direct, rules: engine.rules.sharing)
        return try? SharedRideMatcher(router: router).best(
            for: rider, pickup: pickup, dropoff: dropoff, among: candidates, now: now, depart: wall)
    }

    /// `taxi` as a candidate: the leg it is on is committed, the later ones as planned.
    private func candidate(of taxi: TaxiID, in snapshot: DispatchSnapshot) -> SharingCandidate? {
        guard let leg = sharedLegs[taxi], let record = snapshot.taxis[taxi], record.itinerary.count == leg.later.count + 1 else {
            return nil
        }
        var itinerary: [(ride: RideRequestID, kind: SharedStop.Kind, at: Coordinate, leg: Duration)] = []
        var riders: [RideRequestID: SharedRider] = [:]
        for (index, stop) in record.itinerary.enumerated() {
            guard let at = snapshot.place(of: stop), let rider = snapshot.requests[stop.ride]?.sharedRider else { return nil }
            itinerary.append((stop.ride, stop.kind, at, index == 0 ? max(.zero, leg.arrivesAt - now) : leg.later[index - 1]))
            riders[stop.ride] = rider
        }
        return SharingCandidate(
            taxi: taxi, position: leg.from, capacity: record.seats, itinerary: itinerary, riders: riders, committedStops: 1)
    }

    /// After a rider joined as `match` planned: the legs after the one the
    /// taxi is on are those of the match's schedule.
    mutating func replan(_ match: SharedRideMatcher.Match) {
        let arrivals = match.insertion.arrivals
        sharedLegs[match.taxi]?.later = arrivals.indices.dropFirst().map { arrivals[$0] - arrivals[$0 - 1] }
    }

    /// `taxi` accepted a shared request served alone: it drives `toPickup`,
    /// then the trip of `direct`.
    mutating func startSharedRide(of taxi: TaxiID, toPickup: RoadDrive, direct: Duration) {
        tallyDriving(toPickup, optsIn: true, shared: true)
        sharedLegs[taxi] = SharedLeg(from: toPickup.from, arrivesAt: now + toPickup.duration, later: [direct])
        schedule(.reachStop(taxi), after: toPickup.duration)
    }

    /// `taxi` reached its itinerary's first stop: the rider gets in (no one
    /// is missing in the simulation) or out, and the taxi drives on to the
    /// next stop, if any.
    mutating func reachStop(of taxi: TaxiID) {
        let snapshot = engine.snapshot
        guard let leg = sharedLegs[taxi], let stop = snapshot.taxis[taxi]?.itinerary.first,
              let request = snapshot.requests[stop.ride]
        else { return }
        let here: Coordinate
        switch stop.kind {
        case .pickup:
            guard let opened = open[stop.ride] else { return }
            here = request.pickup
            handle((try? engine.arrived(taxi, rider: stop.ride, now: now)) ?? [])
            handle((try? engine.passengerAboard(taxi, rider: stop.ride, now: now)) ?? [])
            positions[taxi] = (here, request.zone)
            let waited = (now - opened.askedAt) / .seconds(1)
            waits[request.zone, default: []].append(waited)
            figures[request.zone, default: .init()].served += 1
            if let told = opened.toldWait { estimates[request.zone, default: []].append((told / .seconds(1), waited)) }
            sharing.waits.append(waited)
            if sharing.joined.contains(stop.ride), let latest = request.sharedRider?.latestPickup, now > latest + Self.boundSlack {
                sharing.beyondBounds += 1
            }
            boardedAt[stop.ride] = (now, opened.direct)
            open[stop.ride] = nil
        case .dropoff:
            here = request.destination ?? request.pickup
            let zone = zones.zone(at: here)?.id
            handle(engine.apply(.changedZone(taxi, from: positions[taxi]?.zone, to: zone, at: wall), now: now))
            positions[taxi] = (here, zone)
            handle((try? engine.completed(taxi, rider: stop.ride, now: now)) ?? [])
            if let boarded = boardedAt.removeValue(forKey: stop.ride) {
                sharing.delays.append(max(0, (now - boarded.at - boarded.direct) / .seconds(1)))
                if let longest = request.sharedRider?.longestRide, now - boarded.at > longest + Self.boundSlack { sharing.beyondBounds += 1 }
            }
        }
        guard let next = engine.snapshot.taxis[taxi]?.itinerary.first, let to = engine.snapshot.place(of: next) else {
            sharedLegs[taxi] = nil
            return
        }
        let drive = timedDrive(from: here, to: to)
        tallyDriving(drive, optsIn: true, shared: true)
        sharedLegs[taxi] = SharedLeg(from: here, arrivesAt: now + drive.duration, later: Array(leg.later.dropFirst()))
        schedule(.reachStop(taxi), after: drive.duration)
    }

    /// Adds `drive` to the fleet's driving, and to the opt-in riders' when
    /// it serves them; `shared` when it is a leg of a shared itinerary.
    mutating func tallyDriving(_ drive: RoadDrive, optsIn: Bool, shared: Bool) {
        sharing.vehicleMetres += drive.distanceMetres
        sharing.vehicleSeconds += drive.durationSeconds
        if optsIn {
            sharing.optInMetres += drive.distanceMetres
            sharing.optInSeconds += drive.durationSeconds
        }
    }
}

/// What sharing measured over a simulation, and the driving of the whole fleet.
struct SharingTally {
    var optedIn = 0
    var matched = 0
    var vehicleMetres = 0.0
    var vehicleSeconds = 0.0
    var optInMetres = 0.0
    var optInSeconds = 0.0
    var waits: [Double] = []
    var delays: [Double] = []
    /// The riders who joined a taxi on a shared ride.
    var joined: Set<RideRequestID> = []
    /// Riders picked up after their latest pickup (those who joined) or
    /// longer in the taxi than their longest ride (every sharing rider).
    var beyondBounds = 0

    /// The figures of the report; `sharing` says whether opt-in riders shared.
    func figures(sharing: Bool) -> SimulationReport.SharingFigures {
        let sortedWaits = waits.sorted(), sortedDelays = delays.sorted()
        func mean(_ values: [Double]) -> Double? {
            values.isEmpty ? nil : (values.reduce(0, +) / Double(values.count) * 10).rounded() / 10
        }
        return SimulationReport.SharingFigures(
            shared: sharing, optedIn: optedIn, matched: matched,
            vehicleKilometres: (vehicleMetres / 100).rounded() / 10, vehicleHours: (vehicleSeconds / 360).rounded() / 10,
            optInVehicleKilometres: (optInMetres / 100).rounded() / 10, optInVehicleHours: (optInSeconds / 360).rounded() / 10,
            optInServed: waits.count, waitMeanSeconds: mean(waits), waitP90Seconds: DispatchSimulation.percentile(sortedWaits, 0.9),
            addedDelayMeanSeconds: mean(delays), addedDelayP90Seconds: DispatchSimulation.percentile(sortedDelays, 0.9),
            beyondBounds: beyondBounds)
    }
}
