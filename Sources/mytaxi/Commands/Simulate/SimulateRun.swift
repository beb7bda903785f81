import ArgumentParser
import FleetSimulator
import Foundation
import Routing
import Zones

extension Mytaxi.Simulate {
    /// `mytaxi simulate`: taxis and passengers against a running `mytaxi serve`.
    struct SimulateRun: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "run",
            abstract: "Run the simulated fleet and passengers against a running service (the default).",
            discussion: """
                Needs a running `mytaxi serve` whose devices file lists the fleet (`mytaxi simulate \
                devices`) and an administrator (its password on standard input, which every account \
                the simulation makes gets too). Taxis TX000001... report a fix every 30 s of simulated \
                time over the line protocol, Teltonika and GT06 in turn, with GPS noise and gaps; \
                their drivers log in, go available, answer offers (refusing --refusal-rate of them), \
                drive to the pickup on the road graph at the speed profile's speeds of the simulated \
                hour, report arrival, the passenger aboard (or missing, --missing-rate) and the ride \
                completed; free taxis wait, then drive to where passengers ask. Passengers sim-p00001... \
                ask the expected wait, request rides (Poisson arrivals, --requests-per-hour), confirm \
                when queued, sometimes cancel (--cancel-rate), and a share book reservations instead. \
                Simulated time runs --speed-up times faster than real time and ends at the wall \
                clock's time (fixes are never from the future). A progress line goes to standard error \
                every few seconds, the summary to standard output at the end or on Ctrl-C. Every \
                random choice comes from --seed.

                Exit status: 0 after the run, 2 when the service cannot be reached, the administrator \
                cannot log in or a file cannot be read.
                """)

        @Option(help: ArgumentHelp("The zone GeoJSON file the service runs with.", valueName: "FILE"))
        var zones: String

        @OptionGroup var zoneFile: ZoneFileArguments

        @OptionGroup var router: RouterArguments

        @Option(help: "The service's host.")
        var host = "127.0.0.1"

        @Option(name: .customLong("http-port"), help: "The service's HTTP API port.")
        var httpPort = 8080

        @Option(name: .customLong("line-port"), help: "The line protocol's TCP port.")
        var linePort = 5100

        @Option(name: .customLong("teltonika-port"), help: "Teltonika's TCP port.")
        var teltonikaPort = 5027

        @Option(name: .customLong("gt06-port"), help: "GT06's TCP port.")
        var gt06Port = 5023

        @Option(help: ArgumentHelp("The administrator who makes the simulation's accounts.", valueName: "USERNAME"))
        var admin: String

        @Flag(help: "Read the administrator's password from standard input (the only way to give it).")
        var passwordStdin = false

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

        @Option(name: .customLong("progress-every"), help: ArgumentHelp("Real seconds between two progress lines.", valueName: "SECONDS"))
        var progressEvery = 5.0

        @Flag(help: "Print the summary as JSON.")
        var json = false

        private var settings: SimulatorSettings {
            var settings = SimulatorSettings(taxis: taxis, passengers: passengers, requestsPerHour: requestsPerHour, hours: hours)
            settings.reservationShare = reservationShare
            settings.refusalRate = refusalRate
            settings.missingRate = missingRate
            settings.cancelRate = cancelRate
            settings.gpsNoiseMetres = gpsNoise
            settings.gapRate = gapRate
            settings.speedUp = speedUp
            settings.seed = seed
            settings.progressSeconds = progressEvery
            return settings
        }

        func validate() throws {
            if let problem = settings.problems.first { throw ValidationError(problem) }
            for (name, port) in [("--http-port", httpPort), ("--line-port", linePort), ("--teltonika-port", teltonikaPort), ("--gt06-port", gt06Port)]
            where !(1...65535).contains(port) {
                throw ValidationError("\(name) must be from 1 to 65535, not \(port)")
            }
        }

        func run() async throws {
            guard passwordStdin else {
                printError("error: give the administrator's password on standard input with --password-stdin")
                throw ExitCode(2)
            }
            let password = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
                .split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            guard !password.isEmpty else {
                printError("error: no password on standard input")
                throw ExitCode(2)
            }
            let loaded = try loadZonesOrExit(path: zones, arguments: zoneFile)
            let index = try ZoneIndex(zoneSet: loaded.zoneSet)
            let router = try router.loadRouter()
            let demandText: String?
            do {
                demandText = try demand.map { try String(contentsOfFile: $0, encoding: .utf8) }
            } catch {
                printError("\(demand ?? ""): cannot be read: \(error.localizedDescription)")
                throw ExitCode(2)
            }
            let endpoints = ServiceEndpoints(
                host: host, httpPort: httpPort, terminalPorts: [.line: linePort, .teltonika: teltonikaPort, .gt06: gt06Port],
                administrator: admin, password: password)
            let simulation: FleetSimulation
            do {
                simulation = try FleetSimulation(router: router, zones: index, settings: settings, endpoints: endpoints, demandCSV: demandText)
            } catch {
                printError("error: \(error)")
                throw ExitCode(2)
            }
            let taxis = taxis, timeZone = router.timeZone
            let stops = [SIGINT, SIGTERM].map { number in
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number)
                source.setEventHandler { simulation.stop() }
                source.resume()
                return source
            }
            defer { stops.forEach { $0.cancel() } }
            let summary: SimulationSummary
            do {
                summary = try await simulation.run { simulated, summary in
                    printError(summary.progressLine(simulated: simulated, taxis: taxis, timeZone: timeZone))
                }
            } catch {
                printError("error: \(error)")
                throw ExitCode(2)
            }
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
                print(String(decoding: try encoder.encode(summary), as: UTF8.self))
            } else {
                print(summary.text, terminator: "")
            }
        }
    }
}
