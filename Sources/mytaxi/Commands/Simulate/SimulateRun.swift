import ArgumentParser
import FleetSimulator
import Foundation
import Routing
import ServeConfig
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
                the simulation makes gets too), who makes the drivers' accounts and reads the outbox \
                for the passengers, who register themselves and confirm their e-mail addresses \
                (serve's --login-limit and --registration-limit must allow a few hundred). Taxis TX000001... report a fix every 30 s of simulated \
                time over the line protocol, Teltonika and GT06 in turn, with GPS noise and gaps; \
                their drivers log in, go available, answer offers (refusing --refusal-rate of them), \
                drive to the pickup on the road graph, edge by edge at the speed profile's speeds of \
                the simulated hour, report arrival, the passenger aboard (or missing, --missing-rate) and the ride \
                completed; free taxis wait, then drive to where passengers ask. Passengers sim-p00001... \
                ask the expected wait, request rides (Poisson arrivals, --requests-per-hour), confirm \
                when queued, sometimes cancel (--cancel-rate), and a share book reservations instead. \
                The taxis' speeds can be hidden from the service, for it to learn them from the \
                fixes (`/v1/roads/speeds`): --true-speed-profile drives them at a profile of their \
                own, and --incident slows a named road for a while (`mytaxi simulate learning` \
                measures that learning in one process). Simulated time runs --speed-up times faster than real time and ends at the latest at \
                the wall clock's time (fixes are never from the future): it starts at --start-hour, or \
                just so that it ends then. Against a service whose clock runs as fast (serve --clock-rate, \
                the same as --speed-up), the run lives on the service's time instead, and the service \
                times offers, answers and waits in simulated seconds. `mytaxi simulate plan` prints what the seed decides. A progress line goes to standard error \
                every few seconds, the summary to standard output at the end or on Ctrl-C. Every \
                random choice comes from --seed.

                Exit status: 0 after the run, 2 when the service cannot be reached, the administrator \
                cannot log in, a file cannot be read (or --waits-csv or --acknowledged-fixes written) or an incident cannot be used.
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

        @Option(help: ArgumentHelp("The administrator who makes the drivers' accounts and reads the passengers' confirmation e-mails.", valueName: "USERNAME"))
        var admin: String

        @Flag(help: "Read the administrator's password from standard input (the only way to give it).")
        var passwordStdin = false

        @OptionGroup var simulation: SimulationOptions

        @Option(name: .customLong("progress-every"), help: ArgumentHelp("Real seconds between two progress lines.", valueName: "SECONDS"))
        var progressEvery = 5.0

        @Flag(help: "Print the summary as JSON.")
        var json = false

        @Option(name: .customLong("waits-csv"), help: ArgumentHelp(
            "Also write, for every ride asked for now and served, the wait told and had, its zone, whether it queued, the offers refused first, whether its taxi was cruising and its drive, as CSV (docs/simulation.md).",
            valueName: "FILE"))
        var waitsCSV: String?

        @Option(name: .customLong("acknowledged-fixes"), help: ArgumentHelp(
            "Also write every fix the service acknowledged, as CSV (device_id,time): what the archive must hold, for a check after a failure (Tools/chaos.sh).",
            valueName: "FILE"))
        var acknowledgedFixesCSV: String?

        @Option(help: ArgumentHelp(
            "Also sign up N passengers of a burst, who all ask for a ride at once each time the simulator receives SIGUSR1 (kill -USR1 PID), as a failure's test sends a morning's rush (Tools/chaos.sh); 0, no burst.",
            valueName: "N"))
        var burst = 0

        private var settings: SimulatorSettings {
            var settings = simulation.settings
            settings.progressSeconds = progressEvery
            settings.burstRequests = burst
            settings.keepsAcknowledgedFixes = acknowledgedFixesCSV != nil
            return settings
        }

        func validate() throws {
            if let problem = settings.problems.first { throw ValidationError(problem) }
            try simulation.validateTrueSpeeds(beside: router)
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
            let graphRouter = try router.loadRouter()
            let settings = self.settings
            let endpoints = ServiceEndpoints(
                host: host, httpPort: httpPort, terminalPorts: [.line: linePort, .teltonika: teltonikaPort, .gt06: gt06Port],
                administrator: admin, password: password)
            let fleetSimulation: FleetSimulation
            do {
                let clock = try await simulatedClock(settings: settings, endpoints: endpoints, timeZone: graphRouter.timeZone)
                let router = try simulation.drivingRouter(over: graphRouter, graphPath: self.router.graph, start: clock.start)
                fleetSimulation = try FleetSimulation(
                    router: router, zones: index, settings: settings, endpoints: endpoints, demandCSV: try simulation.demandText(),
                    clock: clock)
            } catch let error as SimulatorError {
                printError("error: \(error)")
                throw ExitCode(2)
            }
            let taxis = simulation.taxis, timeZone = graphRouter.timeZone
            let stops = [SIGINT, SIGTERM].map { number in
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number)
                source.setEventHandler { fleetSimulation.stop() }
                source.resume()
                return source
            }
            signal(SIGUSR1, SIG_IGN)
            let bursts = DispatchSource.makeSignalSource(signal: SIGUSR1)
            bursts.setEventHandler { fleetSimulation.burst() }
            bursts.resume()
            defer { (stops + [bursts]).forEach { $0.cancel() } }
            let summary: SimulationSummary
            do {
                summary = try await fleetSimulation.run { simulated, summary in
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
            if let waitsCSV {
                try write([ServedRide.csvHeader] + fleetSimulation.servedRides.map(\.csvLine), to: waitsCSV, what: "the rides' waits")
            }
            if let acknowledgedFixesCSV {
                try write(
                    [AcknowledgedFix.csvHeader] + fleetSimulation.acknowledgedFixes.map(\.csvLine), to: acknowledgedFixesCSV,
                    what: "the acknowledged fixes")
            }
        }

        /// Writes `lines` to `path`, or says what could not be written.
        private func write(_ lines: [String], to path: String, what: String) throws {
            do {
                try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            } catch {
                printError("error: cannot write \(what) to \(path) (\(error.localizedDescription)): give a writable path")
                throw ExitCode(2)
            }
        }

        /// The run's time: the service's when the service runs faster than
        /// real time (then --speed-up must be its rate, and --start-hour is
        /// the service's --clock-start to set), else placed to end by the wall clock's.
        private func simulatedClock(settings: SimulatorSettings, endpoints: ServiceEndpoints, timeZone: TimeZone) async throws
            -> SimulatedClock
        {
            let service = try await ServiceTime.read(from: endpoints)
            guard service.rate != 1 else {
                return SimulatedClock(hours: settings.hours, speedUp: settings.speedUp, startHour: settings.startHour, timeZone: timeZone)
            }
            guard settings.speedUp == service.rate else {
                throw SimulatorError(
                    "the service's clock runs at \(String(format: "%g", service.rate))x (serve --clock-rate): give --speed-up \(String(format: "%g", service.rate)), so that both count the same seconds")
            }
            guard settings.startHour == nil else {
                throw SimulatorError("the run follows the service's clock, which sets the hour: give serve --clock-start instead of --start-hour")
            }
            return SimulatedClock(following: service, hours: settings.hours)
        }
    }
}
