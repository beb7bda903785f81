import ArgumentParser
import DispatchSimulation
import Foundation
import Routing
import ServeConfig
import Zones

extension Mytaxi {
    /// `mytaxi dispatch simulate`: the real engine against a simulated city (SPEC D9).
    struct DispatchSimulate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "simulate",
            abstract: "Run the dispatch engine against a simulated fleet and passengers; print what it measured.",
            discussion: """
                Taxis start at random road nodes of the service area, logged in and available; \
                passengers ask at random road nodes (Poisson arrivals) for random destinations; \
                drivers answer offers within 3-12 s and refuse the --refusal-rate share; queued \
                passengers confirm and give up after 30 minutes; taxis drive at the router's speeds \
                of the simulated hour. Prints per zone and overall: requests, offers, refusals, \
                served, cancelled, the wait from request to the taxi at the pickup (p50, p90), and \
                the error of the wait told at request time (median absolute percentage error, and \
                bias: told minus actual). Time is simulated and every choice comes from --seed: the \
                same arguments print the same report, byte for byte.

                With --shared-share P, that share of passengers asks to share the taxi: each is matched \
                with the service's matcher to a taxi already on a shared ride (within every rider's \
                bounds: 10 min of wait, 50 % and at most 10 min of added trip; at most 2 min later \
                than a taxi of its own) or served alone and joined later. The same demand is run again without sharing, and the report compares \
                the two: vehicle-kilometres and hours of the fleet and of the riders who asked to \
                share, their waits and added delay, and requests served. The matching time per \
                request (p50, p99) goes to standard error, as it is a measure of this machine.
                """)

        @Option(help: ArgumentHelp("The zone GeoJSON file.", valueName: "FILE"))
        var zones: String

        @OptionGroup var zoneFile: ZoneFileArguments

        @OptionGroup var router: RouterArguments

        @Option(help: ArgumentHelp("Taxis on duty.", valueName: "N"))
        var taxis: Int

        @Option(name: .customLong("requests-per-hour"), help: ArgumentHelp("Passengers asking for a taxi now, per hour.", valueName: "R"))
        var requestsPerHour: Double

        @Option(help: ArgumentHelp("Hours of city time to simulate.", valueName: "H"))
        var hours: Double

        @Option(name: .customLong("refusal-rate"), help: ArgumentHelp("The share of offers drivers refuse, 0 to 1.", valueName: "P"))
        var refusalRate: Double = 0

        @Option(name: .customLong("shared-share"), help: ArgumentHelp(
            "The share of passengers who ask to share the taxi, 0 to 1; above 0, the run is compared with one without sharing.",
            valueName: "P"))
        var sharedShare: Double = 0

        @Option(help: ArgumentHelp("The seed of every random choice.", valueName: "S"))
        var seed: UInt64 = 1

        @Option(help: ArgumentHelp(
            "When the simulation starts, city time (ISO 8601). (default: Monday 2026-11-23 08:00 in the graph's time zone)",
            valueName: "TIME"))
        var start: String?

        @Flag(help: "Print the report as JSON.")
        var json = false

        func validate() throws {
            guard taxis >= 0, taxis <= 1_000_000 else { throw ValidationError("--taxis must be from 0 to 1000000, not \(taxis)") }
            guard requestsPerHour.isFinite, requestsPerHour >= 0, requestsPerHour <= 1_000_000 else {
                throw ValidationError("--requests-per-hour must be from 0 to 1000000, not \(requestsPerHour)")
            }
            guard hours.isFinite, hours > 0, hours <= 24 * 365 else {
                throw ValidationError("--hours must be more than 0 and at most a year (8760), not \(hours)")
            }
            guard refusalRate.isFinite, (0...1).contains(refusalRate) else {
                throw ValidationError("--refusal-rate must be from 0 to 1, not \(refusalRate)")
            }
            guard sharedShare.isFinite, (0...1).contains(sharedShare) else {
                throw ValidationError("--shared-share must be from 0 to 1, not \(sharedShare)")
            }
            if let start, Self.parseStart(start) == nil {
                throw ValidationError("--start must be an ISO 8601 time such as 2026-11-23T08:00:00-05:00, not '\(start)'")
            }
        }

        func run() throws {
            let loaded = try loadZonesOrExit(path: zones, arguments: zoneFile)
            let index = try ZoneIndex(zoneSet: loaded.zoneSet)
            let router = try router.loadRouter()
            var settings = SimulationSettings(
                taxis: taxis, requestsPerHour: requestsPerHour, hours: hours, refusalRate: refusalRate, seed: seed)
            settings.sharedShare = sharedShare
            let startTime = start.flatMap(Self.parseStart) ?? Self.mondayMorning(in: router.timeZone)
            let totalHours = Int(hours.rounded(.up))
            var runs: [(label: String, settings: SimulationSettings)] = [("", settings)]
            if sharedShare > 0 {
                var alone = settings
                alone.sharing = false
                runs = [("with sharing: ", settings), ("without sharing: ", alone)]
            }
            var reports: [SimulationReport] = []
            for run in runs {
                var simulation: DispatchSimulation
                do {
                    simulation = try DispatchSimulation(router: router, zones: index, settings: run.settings, start: startTime)
                } catch {
                    printError("\(zones): \(error)")
                    throw ExitCode(2)
                }
                reports.append(simulation.run { hour in printError("\(run.label)simulated hour \(hour) of \(totalHours)") })
                let matching = simulation.matchingMilliseconds.sorted()
                if !matching.isEmpty {
                    printError(String(
                        format: "matching %d shared requests: p50 %.2f ms, p99 %.2f ms", matching.count,
                        DispatchSimulation.percentile(matching, 0.5, places: 2) ?? 0, DispatchSimulation.percentile(matching, 0.99, places: 2) ?? 0))
                }
            }
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
                let document: Data = if reports.count == 2 {
                    try encoder.encode(["withSharing": reports[0], "withoutSharing": reports[1]])
                } else {
                    try encoder.encode(reports[0])
                }
                print(String(decoding: document, as: UTF8.self))
            } else if reports.count == 2 {
                print(SimulationReportText.render(reports[0], comparedWith: reports[1]), terminator: "")
            } else {
                print(SimulationReportText.render(reports[0]), terminator: "")
            }
        }

        static func parseStart(_ text: String) -> Date? {
            try? Date(text, strategy: .iso8601)
        }

        /// Monday 23 November 2026, 08:00, in `timeZone`: a weekday morning rush.
        static func mondayMorning(in timeZone: TimeZone) -> Date {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            return calendar.date(from: DateComponents(year: 2026, month: 11, day: 23, hour: 8)) ?? Date(timeIntervalSince1970: 1_795_420_800)
        }
    }
}
