import ArgumentParser
import FleetSimulator
import Foundation
import Routing

/// The options of `mytaxi simulate run` and `mytaxi simulate plan` that
/// make the simulated city: the fleet, the passengers, how they behave,
/// the terminals' GPS, the speeds the taxis really drive at, how long and
/// how fast the run goes, and the seed.
struct SimulationOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Taxis.", valueName: "N"))
    var taxis = 100

    @Option(help: ArgumentHelp("Passenger accounts.", valueName: "N"))
    var passengers = 200

    @Option(name: .customLong("requests-per-hour"), help: ArgumentHelp("Requests per simulated hour.", valueName: "R"))
    var requestsPerHour = 300.0

    @Option(name: .customLong("reservation-share"), help: ArgumentHelp("The share of requests that are reservations instead.", valueName: "P"))
    var reservationShare = 0.05

    @Option(name: .customLong("refusal-rate"), help: ArgumentHelp("The share of offers drivers refuse.", valueName: "P"))
    var refusalRate = 0.1

    @Option(name: .customLong("missing-rate"), help: ArgumentHelp("The share of pickups where the passenger is missing.", valueName: "P"))
    var missingRate = 0.03

    @Option(name: .customLong("cancel-rate"), help: ArgumentHelp("The share of requests and reservations cancelled.", valueName: "P"))
    var cancelRate = 0.05

    @Option(name: .customLong("gps-noise"), help: ArgumentHelp("Standard deviation of the GPS error, metres.", valueName: "METRES"))
    var gpsNoise = 8.0

    @Option(name: .customLong("gap-rate"), help: ArgumentHelp("The share of fixes never sent (GPS gaps).", valueName: "P"))
    var gapRate = 0.02

    @Option(help: ArgumentHelp("Simulated hours to run.", valueName: "H"))
    var hours = 1.0

    @Option(name: .customLong("speed-up"), help: ArgumentHelp("Simulated seconds per real second.", valueName: "X"))
    var speedUp = 1.0

    @Option(help: ArgumentHelp("The seed of every random choice.", valueName: "S"))
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp(
        "Measured trips (CSV with NYC TLC columns pickup_/dropoff_longitude/latitude) to draw pickups and destinations from. (default: road nodes drawn uniformly)",
        valueName: "TRIPS.csv"))
    var demand: String?

    @Option(name: .customLong("start-hour"), help: ArgumentHelp(
        "The hour of the day (0-23, in the graph's time zone) the simulated time starts at: the latest one that lets the run end by the wall clock's time. (default: the run ends at the wall clock's time)",
        valueName: "H"))
    var startHour: Int?

    @Option(name: .customLong("true-speed-profile"), help: ArgumentHelp(
        "The speeds the taxis really drive at, which the service does not know and learns from their fixes (docs/speed-profile.md), instead of the graph's profile. (default: the router's, see --speed-profile)",
        valueName: "FILE"))
    var trueSpeedProfile: String?

    @Option(name: .customLong("incident"), help: ArgumentHelp(
        "A named road's true speed times FACTOR for MINUTES, FROM minutes after the simulated start (repeatable).",
        valueName: "ROAD NAME,FROM,MINUTES,FACTOR"))
    var incidents: [String] = []

    /// Refuses a true speed profile beside `router`'s --speed-profile or
    /// --free-flow: all three set the speeds the simulated taxis drive at.
    func validateTrueSpeeds(beside router: RouterArguments) throws {
        guard trueSpeedProfile == nil || (router.speedProfile == nil && !router.freeFlow) else {
            throw ValidationError("--true-speed-profile excludes --speed-profile and --free-flow: each sets the speeds the taxis drive at")
        }
    }

    /// The router the simulated taxis drive with: `router` (loaded from the
    /// graph file at `graphPath`) at the --true-speed-profile's speeds, with
    /// the --incident slowdowns timed from `start`, the simulated start.
    /// - Throws: exit status 2, having said why, when the profile, the graph
    ///   file or an incident cannot be used.
    func drivingRouter(over router: RoadRouter, graphPath: String, start: Date) throws -> RoadRouter {
        try TrueSpeeds(over: router, graphPath: graphPath, profile: trueSpeedProfile.map(readSpeedProfile),
                       incidents: incidents, start: start).router
    }

    /// The simulator's settings these options give.
    var settings: SimulatorSettings {
        var settings = SimulatorSettings(taxis: taxis, passengers: passengers, requestsPerHour: requestsPerHour, hours: hours)
        settings.reservationShare = reservationShare
        settings.refusalRate = refusalRate
        settings.missingRate = missingRate
        settings.cancelRate = cancelRate
        settings.gpsNoiseMetres = gpsNoise
        settings.gapRate = gapRate
        settings.speedUp = speedUp
        settings.seed = seed
        settings.startHour = startHour
        return settings
    }

    /// The text of the `--demand` file, nil without one.
    /// - Throws: exit status 2, having said why, when it cannot be read.
    func demandText() throws -> String? {
        do {
            return try demand.map { try String(contentsOfFile: $0, encoding: .utf8) }
        } catch {
            printError("\(demand ?? ""): cannot be read: \(error.localizedDescription)")
            throw ExitCode(2)
        }
    }
}
