import ArgumentParser
import FixRecords
import FleetSimulator
import Foundation
import Routing
import ServeConfig
import Zones

extension Mytaxi.Simulate {
    /// `mytaxi simulate plan`: what a seed decides of a run, printed without a service.
    struct SimulatePlan: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "plan",
            abstract: "Print what the seed decides of a run: the taxis' starts and fixes, the passengers' requests.",
            discussion: """
                Takes the options of `mytaxi simulate run` that make the city, and prints, without any \
                service, a line per taxi (where it starts), per fix its terminal sends while it is \
                given no ride (parked, then cruising to where passengers ask; time, lon,lat, speed, or \
                a GPS gap), and per passenger request (time, passenger, a ride now or a booking, pickup \
                and destination, whether it is cancelled). The same options, seed and --start print \
                the same plan, byte for byte. A live run follows this plan; what the service answers \
                (offers, rides, the timing of its replies) takes taxis elsewhere, so the rides served \
                differ from run to run.

                Exit status: 0 after printing, 2 when a file cannot be read, an incident cannot be used or \
                the graph has no road in a zone.
                """)

        @Option(help: ArgumentHelp("The zone GeoJSON file the service runs with.", valueName: "FILE"))
        var zones: String

        @OptionGroup var zoneFile: ZoneFileArguments

        @OptionGroup var router: RouterArguments

        @OptionGroup var simulation: SimulationOptions

        @Option(help: ArgumentHelp(
            "The simulated time the run starts at, ISO 8601. (default: as `mytaxi simulate run` would start now, from --hours, --speed-up and --start-hour)",
            valueName: "TIME"))
        var start: String?

        func validate() throws {
            if let problem = simulation.settings.problems.first { throw ValidationError(problem) }
            try simulation.validateTrueSpeeds(beside: router)
            if let start, FixTime.date(iso8601: start) == nil {
                throw ValidationError("--start must be an ISO 8601 time such as 2026-11-23T08:00:00Z, not '\(start)'")
            }
        }

        func run() async throws {
            let loaded = try loadZonesOrExit(path: zones, arguments: zoneFile)
            let index = try ZoneIndex(zoneSet: loaded.zoneSet)
            let graphRouter = try router.loadRouter()
            let settings = simulation.settings
            let startTime = start.flatMap(FixTime.date(iso8601:)) ?? SimulatedClock.start(
                hours: settings.hours, speedUp: settings.speedUp, startHour: settings.startHour, timeZone: graphRouter.timeZone,
                wallNow: Date())
            let router = try simulation.drivingRouter(over: graphRouter, graphPath: self.router.graph, start: startTime)
            do {
                let plan = try SimulationPlan(
                    router: router, zones: index, settings: settings, start: startTime, demandCSV: try simulation.demandText())
                print(plan.text, terminator: "")
            } catch let error as SimulatorError {
                printError("error: \(error)")
                throw ExitCode(2)
            }
        }
    }
}
