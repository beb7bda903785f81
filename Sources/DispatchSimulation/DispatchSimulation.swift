import DispatchCore
import DispatchRuntime
import FixRecords
import Fleet
import Foundation
import GeoKit
import Routing
import Zones

/// The real dispatch engine against a simulated city (SPEC D9): taxis
/// driving on the road graph at the router's speeds, passengers asking at
/// random road nodes of the service area, drivers answering offers after a
/// few seconds and refusing some, passengers confirming a queued request
/// and giving up after their patience. Time is simulated (hours of city
/// time in seconds of computing), and every random choice comes from the
/// seed, so the same settings give the same report, byte for byte.
///
/// A taxi is placed where it last dropped a passenger (or where it
/// started): the simulation moves taxis only at the ends of drives, which is
/// what the engine's zone queues see.
///
/// With a share of passengers asking to share (SPEC D10), each such request
/// is matched by the service's own ``SharedRideMatcher`` against the taxis
/// already on shared rides, and a shared taxi drives its itinerary stop by
/// stop. A taxi finishes the leg it is on before turning for a new rider
/// (its next stop is committed). The passengers' requests come from a
/// random stream of their own, so a run with sharing and one without, of
/// the same seed, serve the same demand.
public struct DispatchSimulation {
    enum Happening {
        case request
        case answer(TaxiID, RideRequestID, accept: Bool)
        case reachPickup(TaxiID, RideRequestID)
        case dropOff(TaxiID, Coordinate, ZoneID?)
        case giveUp(RideRequestID)
        case reachStop(TaxiID)
    }

    struct Scheduled {
        let time: Duration
        let order: Int
        let happening: Happening
    }

    struct OpenRequest {
        let zone: ZoneID
        let askedAt: Duration
        let destination: Coordinate
        let toldWait: Duration?
        /// Whether the passenger asked to share.
        let optsIn: Bool
        /// The trip alone.
        let direct: Duration
    }

    let router: RoadRouter
    let zones: ZoneIndex
    let settings: SimulationSettings
    let places: ServiceAreaPlaces
    let start: Date
    var engine = DispatchEngine(rules: DispatchRules(zoneDwell: .zero))
    /// The drivers' answers.
    var random: SplitMix64
    /// The passengers: when they ask, where from, where to, and whether they share.
    var demand: SplitMix64
    var agenda: [Scheduled] = []
    var scheduled = 0
    var now: Duration = .zero
    var positions: [TaxiID: (coordinate: Coordinate, zone: ZoneID?)] = [:]
    var open: [RideRequestID: OpenRequest] = [:]
    /// The leg each taxi on a shared ride is driving, and the legs planned after it.
    var sharedLegs: [TaxiID: SharedLeg] = [:]
    /// When each rider of a shared ride got in.
    var boardedAt: [RideRequestID: (at: Duration, direct: Duration)] = [:]
    /// What sharing measured, and the driving of the whole fleet.
    var sharing = SharingTally()
    /// The time each shared request's matching took, milliseconds.
    public internal(set) var matchingMilliseconds: [Double] = []
    private var passengers = 0
    private var refusedOutside = 0
    var figures: [ZoneID: SimulationReport.Figures] = [:]
    var waits: [ZoneID: [Double]] = [:]
    var estimates: [ZoneID: [(told: Double, actual: Double)]] = [:]

    /// A simulation on `router`'s graph and the zones of `zones`, starting
    /// at `start` (city time: the router's speeds follow its hour).
    /// - Throws: ``SimulationError/noRoadInTheServiceArea`` when no road node lies in a zone.
    public init(router: RoadRouter, zones: ZoneIndex, settings: SimulationSettings, start: Date) throws(SimulationError) {
        self.router = router
        self.zones = zones
        self.settings = settings
        self.start = start
        random = SplitMix64(state: settings.seed ^ 0x5EED_D121_7E55)
        demand = SplitMix64(state: settings.seed)
        places = try ServiceAreaPlaces(router: router, zones: zones)
    }

    /// Runs the simulation to its end and reports what it measured;
    /// `onHour` hears of every simulated hour completed (for progress).
    public mutating func run(onHour: (Int) -> Void = { _ in }) -> SimulationReport {
        var hoursDone = 0
        for number in 0..<settings.taxis {
            let taxi = TaxiID("T\(number + 1)")
            let place = randomPlace()
            positions[taxi] = (place.coordinate, place.zone)
            handle(engine.apply(.appeared(taxi, zone: place.zone, at: wall), now: now))
            handle(engine.login(taxi, now: now))
            handle((try? engine.setAvailable(taxi, now: now)) ?? [])
        }
        let end = Duration.seconds(settings.hours * 3600)
        if settings.requestsPerHour > 0 { schedule(.request, after: nextArrivalGap()) }
        while let next = agenda.first, next.time <= end {
            while next.time >= .seconds((hoursDone + 1) * 3600) {
                hoursDone += 1
                onHour(hoursDone)
            }
            if let deadline = engine.nextDeadline, deadline < next.time {
                now = deadline
                handle(engine.tick(now: now, wall: wall))
                continue
            }
            agenda.removeFirst()
            now = next.time
            happen(next.happening)
        }
        return report()
    }

    var wall: Date { start.addingTimeInterval(now / .seconds(1)) }

    private mutating func happen(_ happening: Happening) {
        switch happening {
        case .request:
            ask()
            schedule(.request, after: nextArrivalGap())
        case .answer(let taxi, let id, let accept):
            guard engine.snapshot.state(of: taxi) == .offered(id), let request = engine.snapshot.requests[id] else { return }
            if accept {
                let toPickup = timedDrive(from: positions[taxi]?.coordinate ?? request.pickup, to: request.pickup)
                handle((try? engine.accept(taxi, eta: toPickup.duration, now: now)) ?? [])
                if engine.snapshot.taxis[taxi]?.itinerary.isEmpty == false {
                    startSharedRide(of: taxi, toPickup: toPickup, direct: open[id]?.direct ?? toPickup.duration)
                } else {
                    tallyDriving(toPickup, optsIn: open[id]?.optsIn == true, shared: false)
                    schedule(.reachPickup(taxi, id), after: toPickup.duration)
                }
            } else {
                handle((try? engine.refuse(taxi, now: now)) ?? [])
            }
        case .reachPickup(let taxi, let id):
            guard let request = open[id], let pickup = engine.snapshot.requests[id]?.pickup else { return }
            handle((try? engine.arrived(taxi, now: now)) ?? [])
            handle((try? engine.passengerAboard(taxi, now: now)) ?? [])
            positions[taxi] = (pickup, request.zone)
            let actual = (now - request.askedAt) / .seconds(1)
            waits[request.zone, default: []].append(actual)
            figures[request.zone, default: .init()].served += 1
            if let told = request.toldWait {
                estimates[request.zone, default: []].append((told / .seconds(1), actual))
            }
            let destinationZone = zones.zone(at: request.destination)?.id
            let trip = timedDrive(from: pickup, to: request.destination)
            tallyDriving(trip, optsIn: request.optsIn, shared: false)
            if request.optsIn {
                sharing.delays.append(max(0, (trip.duration - request.direct) / .seconds(1)))
                sharing.waits.append(actual)
            }
            schedule(.dropOff(taxi, request.destination, destinationZone), after: trip.duration)
            open[id] = nil
        case .dropOff(let taxi, let destination, let zone):
            let from = positions[taxi]?.zone
            positions[taxi] = (destination, zone)
            handle(engine.apply(.changedZone(taxi, from: from, to: zone, at: wall), now: now))
            handle((try? engine.completed(taxi, now: now)) ?? [])
        case .giveUp(let id):
            guard case .waiting = engine.snapshot.requests[id]?.phase, let zone = open[id]?.zone else { return }
            handle((try? engine.cancel(id, now: now)) ?? [])
            figures[zone, default: .init()].cancelled += 1
            open[id] = nil
        case .reachStop(let taxi):
            reachStop(of: taxi)
        }
    }

    /// A passenger asks at a random road node of the service area for a
    /// random destination, sharing the taxi with the opt-in share's odds.
    private mutating func ask() {
        passengers += 1
        let pickup = places.random(using: &demand)
        let destination = places.random(using: &demand)
        let optsIn = demand.nextUnit() < settings.sharedShare
        let told = toldWait(at: pickup.coordinate, in: pickup.zone)
        let direct = drive(from: pickup.coordinate, to: destination.coordinate)
        var rideSharing: RideSharing?
        var match: SharedRideMatcher.Match?
        if optsIn, settings.sharing {
            match = matchSharedRider(from: pickup.coordinate, to: destination.coordinate, direct: direct).flatMap {
                engine.rules.sharing.joins(sharedPickupIn: $0.insertion.pickupAt - now, aloneIn: told) ? $0 : nil
            }
            rideSharing = RideSharing(directTrip: direct, join: match.map {
                RideSharing.Join(
                    taxi: $0.taxi, pickupIndex: $0.insertion.pickupIndex, dropoffIndex: $0.insertion.dropoffIndex,
                    eta: $0.insertion.pickupAt - now)
            })
        }
        let events = engine.request(
            passenger: PassengerID("P\(passengers)"), pickup: pickup.coordinate, zone: pickup.zone,
            destination: destination.coordinate, sharing: rideSharing, now: now)
        for case .requestOpened(let id, _, let zone) in events {
            open[id] = OpenRequest(
                zone: zone, askedAt: now, destination: destination.coordinate, toldWait: told, optsIn: optsIn, direct: direct)
            figures[zone, default: .init()].requests += 1
            schedule(.giveUp(id), after: settings.patience)
        }
        if optsIn { sharing.optedIn += 1 }
        for case .riderJoined(let id, _, _) in events {
            sharing.matched += 1
            sharing.joined.insert(id)
            if let match { replan(match) }
        }
        handle(events)
    }

    /// The wait a passenger is told on asking (SPEC D9), as the service
    /// tells it: the time until a taxi takes the request, plus the router's
    /// ETA of the zone's free taxi when there is one, else the drive the
    /// zone's latest rides were told.
    private func toldWait(at pickup: Coordinate, in zone: ZoneID) -> Duration? {
        guard let estimate = engine.expectedWaitForTaxi(in: zone, now: now) else { return nil }
        return estimate.wait(freeTaxisDrive: estimate.freeTaxi.flatMap { positions[$0]?.coordinate }.map { drive(from: $0, to: pickup) })
    }

    /// Reacts to what the engine decided: drivers answer offers, queued passengers confirm.
    mutating func handle(_ events: [DispatchEvent]) {
        for event in events {
            switch event {
            case .offerMade(let id, let taxi, _):
                if let zone = engine.snapshot.requests[id]?.zone { figures[zone, default: .init()].offers += 1 }
                let accept = random.nextUnit() >= settings.refusalRate
                schedule(.answer(taxi, id, accept: accept), after: .milliseconds(Int64(3000 + random.nextUnit() * 9000)))
            case .offerRefused(let id, _):
                if let zone = engine.snapshot.requests[id]?.zone { figures[zone, default: .init()].refusals += 1 }
            case .passengerQueued(let id, _, _, let confirmBy?) where confirmBy > now:
                handle((try? engine.confirm(id, now: now)) ?? [])
            case .requestRefused:
                refusedOutside += 1
            default:
                break
            }
        }
    }

    mutating func schedule(_ happening: Happening, after delay: Duration) {
        scheduled += 1
        let item = Scheduled(time: now + max(delay, .zero), order: scheduled, happening: happening)
        let index = agenda.firstIndex { ($0.time, $0.order) > (item.time, item.order) } ?? agenda.endIndex
        agenda.insert(item, at: index)
    }

    /// The driving time at the simulated hour (``RoadDrive``).
    func drive(from: Coordinate, to: Coordinate) -> Duration {
        RoadDrive(router: router, from: from, to: to, depart: wall).duration
    }

    /// The drive at the simulated hour, with its length.
    func timedDrive(from: Coordinate, to: Coordinate) -> RoadDrive {
        RoadDrive(router: router, from: from, to: to, depart: wall)
    }

    private mutating func randomPlace() -> (coordinate: Coordinate, zone: ZoneID) {
        places.random(using: &random)
    }

    private mutating func nextArrivalGap() -> Duration {
        let seconds = -log(1 - demand.nextUnit()) * 3600 / settings.requestsPerHour
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    private func report() -> SimulationReport {
        var overall = SimulationReport.Figures()
        var allWaits: [Double] = []
        var allEstimates: [(told: Double, actual: Double)] = []
        var perZone: [SimulationReport.ZoneFigures] = []
        for zone in figures.keys.sorted() {
            var zoneFigures = figures[zone] ?? .init()
            Self.summarise(&zoneFigures, waits: waits[zone] ?? [], estimates: estimates[zone] ?? [])
            perZone.append(.init(zone: zone.text, figures: zoneFigures))
            overall.requests += zoneFigures.requests
            overall.offers += zoneFigures.offers
            overall.refusals += zoneFigures.refusals
            overall.served += zoneFigures.served
            overall.cancelled += zoneFigures.cancelled
            allWaits += waits[zone] ?? []
            allEstimates += estimates[zone] ?? []
        }
        Self.summarise(&overall, waits: allWaits, estimates: allEstimates)
        return SimulationReport(
            taxis: settings.taxis, requestsPerHour: settings.requestsPerHour, hours: settings.hours,
            refusalRate: settings.refusalRate, seed: settings.seed, refusedOutsideServiceArea: refusedOutside,
            overall: overall, zones: perZone, sharing: settings.sharedShare > 0 ? sharing.figures(sharing: settings.sharing) : nil)
    }

    private static func summarise(_ figures: inout SimulationReport.Figures, waits: [Double], estimates: [(told: Double, actual: Double)]) {
        let sorted = waits.sorted()
        figures.waitP50Seconds = percentile(sorted, 0.5)
        figures.waitP90Seconds = percentile(sorted, 0.9)
        let usable = estimates.filter { $0.actual > 0 }
        figures.estimated = usable.count
        figures.estimateMdAPEPercent = percentile(usable.map { abs($0.told - $0.actual) / $0.actual * 100 }.sorted(), 0.5)
        figures.estimateBiasSeconds = usable.isEmpty ? nil : usable.map { $0.told - $0.actual }.reduce(0, +) / Double(usable.count)
    }

    /// The `fraction` percentile of `sorted` (nearest rank), rounded to
    /// `places` decimals (one unless told); nil when empty.
    public static func percentile(_ sorted: [Double], _ fraction: Double, places: Int = 1) -> Double? {
        guard !sorted.isEmpty else { return nil }
        let rank = min(sorted.count - 1, max(0, Int((fraction * Double(sorted.count)).rounded(.up)) - 1))
        let scale = pow(10, Double(places))
        return (sorted[rank] * scale).rounded() / scale
    }
}

/// Why a simulation cannot run.
public enum SimulationError: Error, Equatable, CustomStringConvertible {
    /// No node of the road graph lies inside a zone: the graph and the zones are of different places.
    case noRoadInTheServiceArea

    public var description: String {
        switch self {
        case .noRoadInTheServiceArea:
            "no road of the graph lies inside a zone: are the graph and the zone file of the same city?"
        }
    }
}
