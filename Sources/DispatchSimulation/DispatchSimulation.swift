import DispatchCore
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
public struct DispatchSimulation {
    private enum Happening {
        case request
        case answer(TaxiID, RideRequestID, accept: Bool)
        case reachPickup(TaxiID, RideRequestID)
        case dropOff(TaxiID, Coordinate, ZoneID?)
        case giveUp(RideRequestID)
    }

    private struct Scheduled {
        let time: Duration
        let order: Int
        let happening: Happening
    }

    private struct OpenRequest {
        let zone: ZoneID
        let askedAt: Duration
        let destination: Coordinate
        let toldWait: Duration?
    }

    private let router: RoadRouter
    private let zones: ZoneIndex
    private let settings: SimulationSettings
    private let places: ServiceAreaPlaces
    private let start: Date
    private var engine = DispatchEngine(rules: DispatchRules(zoneDwell: .zero))
    private var random: SplitMix64
    private var agenda: [Scheduled] = []
    private var scheduled = 0
    private var now: Duration = .zero
    private var positions: [TaxiID: (coordinate: Coordinate, zone: ZoneID?)] = [:]
    private var open: [RideRequestID: OpenRequest] = [:]
    private var passengers = 0
    private var refusedOutside = 0
    private var figures: [ZoneID: SimulationReport.Figures] = [:]
    private var waits: [ZoneID: [Double]] = [:]
    private var estimates: [ZoneID: [(told: Double, actual: Double)]] = [:]

    /// A simulation on `router`'s graph and the zones of `zones`, starting
    /// at `start` (city time: the router's speeds follow its hour).
    /// - Throws: ``SimulationError/noRoadInTheServiceArea`` when no road node lies in a zone.
    public init(router: RoadRouter, zones: ZoneIndex, settings: SimulationSettings, start: Date) throws(SimulationError) {
        self.router = router
        self.zones = zones
        self.settings = settings
        self.start = start
        random = SplitMix64(state: settings.seed)
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

    private var wall: Date { start.addingTimeInterval(now / .seconds(1)) }

    private mutating func happen(_ happening: Happening) {
        switch happening {
        case .request:
            ask()
            schedule(.request, after: nextArrivalGap())
        case .answer(let taxi, let id, let accept):
            guard engine.snapshot.state(of: taxi) == .offered(id), let request = engine.snapshot.requests[id] else { return }
            if accept {
                let eta = drive(from: positions[taxi]?.coordinate ?? request.pickup, to: request.pickup)
                handle((try? engine.accept(taxi, eta: eta, now: now)) ?? [])
                schedule(.reachPickup(taxi, id), after: eta)
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
            schedule(.dropOff(taxi, request.destination, destinationZone), after: drive(from: pickup, to: request.destination))
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
        }
    }

    /// A passenger asks at a random road node of the service area for a random destination.
    private mutating func ask() {
        passengers += 1
        let pickup = randomPlace()
        let destination = randomPlace()
        let told = toldWait(at: pickup.coordinate, in: pickup.zone)
        let events = engine.request(
            passenger: PassengerID("P\(passengers)"), pickup: pickup.coordinate, zone: pickup.zone,
            destination: destination.coordinate, now: now)
        for case .requestOpened(let id, _, let zone) in events {
            open[id] = OpenRequest(zone: zone, askedAt: now, destination: destination.coordinate, toldWait: told)
            figures[zone, default: .init()].requests += 1
            schedule(.giveUp(id), after: settings.patience)
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
    private mutating func handle(_ events: [DispatchEvent]) {
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

    private mutating func schedule(_ happening: Happening, after delay: Duration) {
        scheduled += 1
        let item = Scheduled(time: now + max(delay, .zero), order: scheduled, happening: happening)
        let index = agenda.firstIndex { ($0.time, $0.order) > (item.time, item.order) } ?? agenda.endIndex
        agenda.insert(item, at: index)
    }

    /// The driving time at the simulated hour (``RoadDrive``).
    private func drive(from: Coordinate, to: Coordinate) -> Duration {
        RoadDrive(router: router, from: from, to: to, depart: wall).duration
    }

    private mutating func randomPlace() -> (coordinate: Coordinate, zone: ZoneID) {
        places.random(using: &random)
    }

    private mutating func nextArrivalGap() -> Duration {
        let seconds = -log(1 - random.nextUnit()) * 3600 / settings.requestsPerHour
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
            overall: overall, zones: perZone)
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

    /// The `fraction` percentile of `sorted` (nearest rank), rounded to 0.1; nil when empty.
    static func percentile(_ sorted: [Double], _ fraction: Double) -> Double? {
        guard !sorted.isEmpty else { return nil }
        let rank = min(sorted.count - 1, max(0, Int((fraction * Double(sorted.count)).rounded(.up)) - 1))
        return (sorted[rank] * 10).rounded() / 10
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
