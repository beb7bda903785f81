import ArgumentParser
import FleetSimulator
import Foundation

/// The options of `mytaxi simulate run` and `mytaxi simulate plan` that
/// make the simulated city: the fleet, the passengers, how they behave,
/// the terminals' GPS, how long and how fast the run goes, and the seed.
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
