import DispatchSimulation
import Foundation
import GeoKit

/// One simulated taxi: its terminal reports a fix every
/// ``SimulatorSettings/fixIntervalSeconds`` of simulated time (with GPS
/// noise, and now and then none), and its driver works the API: logs in,
/// goes available, answers offers (refusing some), drives to the pickup on
/// the router's route, reports arrival, the passenger aboard (or missing)
/// and the ride completed. A free taxi waits a while, then drives to where
/// passengers ask. Every choice comes from the taxi's own random stream,
/// seeded from the run's seed and its number.
final class SimulatedTaxi {
    private enum Phase {
        /// Logged in, waiting for its taxi to be heard in a zone to go available.
        case joining
        /// Available: parked, or driving to where passengers ask.
        case free
        /// Will answer the offer of `ride` at simulated second `at`.
        case answering(ride: String, accept: Bool, at: Double)
        /// Driving to the pickup of `ride`.
        case toPickup(ride: String, destination: Coordinate?)
        /// At the pickup of `ride`, the passenger not there; reports it once the service allows.
        case missingPassenger(ride: String)
        /// Driving the passenger of `ride` to the destination.
        case toDestination(ride: String)
    }

    private let taxiId: String
    private let context: SimulationContext
    private var random: SplitMix64
    private let terminal: TerminalConnection
    private var token = ""
    private var phase = Phase.joining
    private var position: Coordinate
    private var drive: RoadDrive?
    private var driveStart = 0.0
    private var parkedUntil = 0.0
    private var nextFix: Double
    private var nextPoll = ContinuousClock.now
    private static let pollInterval = Duration.seconds(2)

    /// The `index`-th taxi (from 0) of the run (``FleetSimulation`` has checked its protocol has a port).
    init(index: Int, context: SimulationContext) {
        self.context = context
        taxiId = TerminalKind.taxiId(index)
        random = SplitMix64(state: context.settings.seed &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(index))
        let kind = TerminalKind.of(taxi: index)
        terminal = TerminalConnection(
            host: context.endpoints.host, port: context.endpoints.terminalPorts[kind] ?? 0, frames: TerminalFrames(kind: kind, deviceId: TerminalKind.deviceId(index)),
            tally: context.tally)
        position = context.places.random(using: &random).coordinate
        nextFix = random.nextUnit() * context.settings.fixIntervalSeconds
    }

    /// Logs the driver in and lives until the simulated time is over.
    func run() async {
        do {
            token = try await context.client.login(taxiId, password: context.endpoints.password)
        } catch {
            context.tally.apiFailed()
            return
        }
        parkedUntil = random.nextUnit() * 600
        while !context.clock.isOver {
            let now = context.clock.elapsed
            await move(to: now)
            if now >= nextFix {
                await report(at: now)
                nextFix += context.settings.fixIntervalSeconds
            }
            if ContinuousClock.now >= nextPoll {
                nextPoll = .now + Self.pollInterval
                await work(at: now)
            }
            let untilFix = context.clock.real(nextFix - context.clock.elapsed)
            try? await Task.sleep(for: min(untilFix, .milliseconds(500)))
        }
        terminal.close()
    }

    /// Moves along the current drive; at its end, what the phase does there.
    private func move(to now: Double) async {
        guard let drive else {
            if case .free = phase, now >= parkedUntil { startDrive(to: context.cruisingTarget(using: &random), at: now) }
            return
        }
        position = drive.position(after: now - driveStart).coordinate
        guard now - driveStart >= drive.durationSeconds else { return }
        self.drive = nil
        switch phase {
        case .toPickup(let ride, let destination):
            await arrive(for: ride, destination: destination, at: now)
        case .toDestination:
            let answer = await call("POST", "/v1/driver/ride/completed")
            if answer?.status == 200 { context.tally.completed() }
            becomeFree(at: now)
        default:
            parkedUntil = now + 120 + random.nextUnit() * 600
        }
    }

    /// At the pickup: reports arrival (the service may have seen it first),
    /// then the passenger aboard and the drive to the destination, or a missing passenger.
    private func arrive(for ride: String, destination: Coordinate?, at now: Double) async {
        let arrived = await call("POST", "/v1/driver/ride/arrived")
        guard arrived?.status == 200 || arrived?.status == 409 else { return becomeFree(at: now) }
        context.tally.taxiArrived(for: ride, at: context.clock.date(at: now))
        if random.nextUnit() < context.settings.missingRate {
            phase = .missingPassenger(ride: ride)
            return
        }
        let aboard = await call("POST", "/v1/driver/ride/aboard")
        guard aboard?.status == 200 else { return becomeFree(at: now) }
        phase = .toDestination(ride: ride)
        startDrive(to: destination ?? context.places.random(using: &random).coordinate, at: now)
    }

    /// Sends the fix of the moment, unless this one falls in a GPS gap.
    private func report(at now: Double) async {
        if random.nextUnit() < context.settings.gapRate {
            context.tally.gap()
            return
        }
        let moving = drive.map { (now - driveStart) < $0.durationSeconds } ?? false
        let heading = drive.map { $0.position(after: now - driveStart).heading } ?? 0
        let fix = TerminalFix(
            time: context.clock.date(at: now), coordinate: noisy(position), speedKmh: moving ? (drive?.meanSpeedKmh ?? 0) : 0,
            heading: heading)
        await terminal.send(fix)
    }

    /// What the driver does on the API now: go available, answer an offer,
    /// take an allocated reservation, notice a cancelled ride, report a missing passenger.
    private func work(at now: Double) async {
        switch phase {
        case .joining:
            let answer = await call("PUT", "/v1/driver/availability", body: ["available": true])
            if answer?.status == 200 {
                context.tally.driverAvailable()
                phase = .free
            }
        case .free:
            guard let driver = await call("GET", "/v1/driver")?.json else { return }
            if let offer = driver["offer"] as? [String: Any], let ride = offer["rideId"] as? String {
                let accept = random.nextUnit() >= context.settings.refusalRate
                phase = .answering(ride: ride, accept: accept, at: now + 2 + random.nextUnit() * 6)
            } else if let ride = driver["ride"] as? [String: Any], let id = ride["rideId"] as? String {
                goToPickup(of: id, ride: ride, at: now)
            } else if driver["state"] as? String == "unavailable" {
                phase = .joining
            }
        case .answering(let ride, let accept, let at):
            guard now >= at else { return }
            let answer = await call("POST", accept ? "/v1/driver/offer/accept" : "/v1/driver/offer/refuse")
            guard answer?.status == 200 else { return becomeFree(at: now) }
            context.tally.offerSeen(accepted: accept)
            guard accept, let driver = await call("GET", "/v1/driver")?.json,
                  let current = driver["ride"] as? [String: Any], current["rideId"] as? String == ride else { return becomeFree(at: now) }
            goToPickup(of: ride, ride: current, at: now)
        case .toPickup(let ride, _):
            guard let driver = await call("GET", "/v1/driver")?.json else { return }
            if (driver["ride"] as? [String: Any])?["rideId"] as? String != ride { becomeFree(at: now) }
        case .missingPassenger:
            let answer = await call("POST", "/v1/driver/ride/missing-client")
            if answer?.status == 200 {
                context.tally.missingPassenger()
                becomeFree(at: now)
            }
        case .toDestination:
            break
        }
    }

    private func goToPickup(of id: String, ride: [String: Any], at now: Double) {
        guard let pickup = Self.point(ride["pickup"]) else { return becomeFree(at: now) }
        phase = .toPickup(ride: id, destination: Self.point(ride["destination"]))
        startDrive(to: pickup, at: now)
    }

    private func becomeFree(at now: Double) {
        phase = .free
        drive = nil
        parkedUntil = now + 60 + random.nextUnit() * 300
    }

    private func startDrive(to target: Coordinate, at now: Double) {
        drive = RoadDrive(router: context.router, from: position, to: target, depart: context.clock.date(at: now), withPath: true)
        driveStart = now
    }

    /// `position` moved by the GPS error: a normal deviate of
    /// ``SimulatorSettings/gpsNoiseMetres`` in each direction.
    private func noisy(_ position: Coordinate) -> Coordinate {
        let sigma = context.settings.gpsNoiseMetres
        guard sigma > 0 else { return position }
        let radius = sigma * (-2 * log(max(random.nextUnit(), 1e-12))).squareRoot()
        let angle = 2 * Double.pi * random.nextUnit()
        let metresPerDegree = Coordinate.earthRadiusMetres * Double.pi / 180
        return Coordinate(
            longitude: position.longitude + radius * cos(angle) / (metresPerDegree * cos(position.latitude * Double.pi / 180)),
            latitude: position.latitude + radius * sin(angle) / metresPerDegree)
    }

    private func call(_ method: String, _ path: String, body: [String: Any]? = nil) async -> ServiceClient.Answer? {
        do {
            return try await context.client.call(method, path, token: token, body: body)
        } catch {
            context.tally.apiFailed()
            return nil
        }
    }

    private static func point(_ value: Any?) -> Coordinate? {
        guard let point = value as? [String: Any], let lon = point["lon"] as? Double, let lat = point["lat"] as? Double else { return nil }
        return Coordinate(longitude: lon, latitude: lat)
    }
}
