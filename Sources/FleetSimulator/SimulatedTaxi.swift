import DispatchSimulation
import Foundation
import GeoKit

/// One simulated taxi: its terminal reports a fix every
/// ``SimulatorSettings/fixIntervalSeconds`` of simulated time (with GPS
/// noise, and now and then none), and its driver works the API: logs in,
/// goes available, answers offers (refusing some), drives to the pickup on
/// the router's route, reports arrival, the passenger aboard (or missing)
/// and the ride completed. A free taxi waits a while, then drives to where
/// passengers ask. Where it goes and what it reports follow its
/// ``TaxiCourse``; the driver's choices (refusals, answer delays, missing
/// passengers) come from a random stream of its own, seeded from the run's
/// seed and the taxi's number.
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
    private var course: TaxiCourse
    private var choices: SplitMix64
    private let terminal: TerminalConnection
    private var token = ""
    private var phase = Phase.joining
    private var nextPoll = ContinuousClock.now
    /// Real time between two looks of the driver's app at the service:
    /// 5 simulated seconds (a driver sees an offer within seconds, as a
    /// push would show it), but no more often than twice a real second
    /// and no less than every 2 s, so that a fast run does not flood the service.
    private let pollInterval: Duration

    /// The `index`-th taxi (from 0) of the run (``FleetSimulation`` has checked its protocol has a port).
    init(index: Int, context: SimulationContext) {
        self.context = context
        taxiId = TerminalKind.taxiId(index)
        course = TaxiCourse(index: index, settings: context.settings, trips: context.trips)
        pollInterval = min(max(context.clock.real(5), .milliseconds(500)), .seconds(2))
        choices = SplitMix64(state: (context.settings.seed ^ 0xD21_7E25) &* 0x94D0_49BB_1331_11EB &+ UInt64(index))
        let kind = TerminalKind.of(taxi: index)
        terminal = TerminalConnection(
            host: context.endpoints.host, port: context.endpoints.terminalPorts[kind] ?? 0,
            frames: TerminalFrames(kind: kind, deviceId: TerminalKind.deviceId(index)), tally: context.tally)
    }

    /// Logs the driver in and lives until the simulated time is over.
    func run() async {
        do {
            token = try await context.client.login(taxiId, password: context.endpoints.password)
        } catch {
            context.tally.apiFailed(error)
            return
        }
        while !context.clock.isOver {
            let now = context.clock.elapsed
            await catchUp(to: now)
            if ContinuousClock.now >= nextPoll {
                nextPoll = .now + pollInterval
                await work(at: now)
            }
            let untilDue = context.clock.real(min(course.nextFix, nextMove) - context.clock.elapsed)
            try? await Task.sleep(for: min(untilDue, ContinuousClock.now.duration(to: nextPoll), .milliseconds(500)))
        }
        terminal.close()
    }

    /// When the taxi's next move is due: the end of its drive, or for a
    /// free taxi the end of its parking.
    private var nextMove: Double {
        if let end = course.driveEnd { return end }
        if case .free = phase { return course.parkedUntil }
        return .infinity
    }

    /// Does what fell due up to `now`, in order of time: fixes, the end of
    /// a drive (what the phase does there), a free taxi setting off.
    private func catchUp(to now: Double) async {
        while true {
            let move = nextMove
            guard min(course.nextFix, move) <= now else { return }
            if course.nextFix <= move {
                if let fix = course.takeFix(date: context.clock.date(at: course.nextFix)) {
                    await terminal.send(fix)
                } else {
                    context.tally.gap()
                }
            } else if let end = course.driveEnd {
                await driveEnded(at: end)
            } else {
                course.cruise(trips: context.trips, router: context.router, date: context.clock.date(at:))
            }
        }
    }

    /// At the end of a drive: at the pickup, at the destination, or where a free taxi cruised to.
    private func driveEnded(at end: Double) async {
        switch phase {
        case .toPickup(let ride, let destination):
            course.stop(at: end)
            await arrive(for: ride, destination: destination, at: end)
        case .toDestination(let ride):
            let answer = await call("POST", "/v1/driver/ride/completed?rideId=\(ride)")
            if answer?.status == 200 { context.tally.completed() }
            becomeFree(at: end)
        default:
            course.park(at: end, minimum: 120, spread: 600)
        }
    }

    /// At the pickup: reports arrival (the service may have seen it first),
    /// then the passenger aboard and the drive to the destination, or a missing passenger.
    private func arrive(for ride: String, destination: Coordinate?, at now: Double) async {
        let arrived = await call("POST", "/v1/driver/ride/arrived?rideId=\(ride)")
        guard arrived?.status == 200 || arrived?.status == 409 else { return becomeFree(at: now) }
        context.tally.taxiArrived(for: ride, at: context.clock.date(at: now))
        if choices.nextUnit() < context.settings.missingRate {
            phase = .missingPassenger(ride: ride)
            return
        }
        let aboard = await call("POST", "/v1/driver/ride/aboard?rideId=\(ride)")
        guard aboard?.status == 200 else { return becomeFree(at: now) }
        phase = .toDestination(ride: ride)
        let target = destination ?? context.trips.place(using: &choices)
        course.startDrive(to: target, at: now, date: context.clock.date(at: now), router: context.router)
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
                course.holdParking(until: now)
            }
        case .free:
            guard let driver = await call("GET", "/v1/driver")?.json else { return }
            if let offer = driver["offer"] as? [String: Any], let ride = offer["rideId"] as? String {
                let accept = choices.nextUnit() >= context.settings.refusalRate
                let answerAt = max(now, offeredAt(offer, seenAt: now) + 2 + choices.nextUnit() * 6)
                phase = .answering(ride: ride, accept: accept, at: answerAt)
                nextPoll = .now + context.clock.real(answerAt - now)
            } else if let ride = driver["ride"] as? [String: Any], let id = ride["rideId"] as? String {
                goToPickup(of: id, ride: ride, at: now)
            } else if driver["state"] as? String == "unavailable" {
                phase = .joining
            }
        case .answering(let ride, let accept, let at):
            guard now >= at else { return }
            let answer = await call("POST", accept ? "/v1/driver/offer/accept" : "/v1/driver/offer/refuse")
            guard answer?.status == 200 else { return becomeFree(at: now) }
            context.tally.offerSeen(for: ride, accepted: accept)
            guard accept, let driver = await call("GET", "/v1/driver")?.json,
                  let current = driver["ride"] as? [String: Any], current["rideId"] as? String == ride else { return becomeFree(at: now) }
            goToPickup(of: ride, ride: current, at: now)
        case .toPickup(let ride, _):
            guard let driver = await call("GET", "/v1/driver")?.json else { return }
            if (driver["ride"] as? [String: Any])?["rideId"] as? String != ride { becomeFree(at: now) }
        case .missingPassenger(let ride):
            let answer = await call("POST", "/v1/driver/ride/missing-client?rideId=\(ride)")
            if answer?.status == 200 {
                context.tally.missingPassenger()
                becomeFree(at: now)
            }
        case .toDestination:
            break
        }
    }

    /// When the offer was made, in simulated seconds: a driver's phone
    /// shows it at once (a push), which the app's look every few seconds
    /// stands for; so the driver answers 2 to 8 s after it was made, or at
    /// once when that has passed. On a service on the wall clock the
    /// offer's time is not the simulation's, and the driver answers after
    /// seeing it.
    private func offeredAt(_ offer: [String: Any], seenAt now: Double) -> Double {
        guard context.clock.followsService, let text = offer["offeredAt"] as? String, let made = try? Date(text, strategy: .iso8601) else {
            return now
        }
        return min(now, made.timeIntervalSince(context.clock.start))
    }

    private func goToPickup(of id: String, ride: [String: Any], at now: Double) {
        guard let pickup = Self.point(ride["pickup"]) else { return becomeFree(at: now) }
        phase = .toPickup(ride: id, destination: Self.point(ride["destination"]))
        let wasMoving = course.drive != nil
        course.startDrive(to: pickup, at: now, date: context.clock.date(at: now), router: context.router)
        context.tally.rideTaken(id, wasMoving: wasMoving, driveSeconds: course.drive?.durationSeconds)
    }

    private func becomeFree(at now: Double) {
        phase = .free
        course.park(at: now, minimum: 60, spread: 300)
    }

    private func call(_ method: String, _ path: String, body: [String: Any]? = nil) async -> ServiceClient.Answer? {
        do {
            return try await context.client.call(method, path, token: token, body: body)
        } catch {
            context.tally.apiFailed(error)
            return nil
        }
    }

    private static func point(_ value: Any?) -> Coordinate? {
        guard let point = value as? [String: Any], let lon = point["lon"] as? Double, let lat = point["lat"] as? Double else { return nil }
        return Coordinate(longitude: lon, latitude: lat)
    }
}
