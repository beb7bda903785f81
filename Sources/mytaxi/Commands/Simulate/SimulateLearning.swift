import ArgumentParser
import Foundation
import LearningSimulation
import Routing

extension Mytaxi.Simulate {
    /// `mytaxi simulate learning`: how well the service learns speeds from its fleet, in one process.
    struct SimulateLearning: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "learning",
            abstract: "Measure how well the router learns travel times from the fleet's fixes (no service needed).",
            discussion: """
                Taxis drive random trips on the graph at hidden true speeds (--true-speed-profile, with \
                --incident slowdowns on named roads) and report a fix every 30 s with GPS error \
                (--gps-noise) and losses (--drop-rate). The service's side is what `mytaxi serve` runs: \
                a router on the graph's own profile (or --speed-profile) that learns from the fixes only, \
                matching them to the roads and re-customizing every 30 simulated seconds. At each \
                --report-at hour, the service's travel times of random trips are scored against the \
                true drive times (MdAPE, RMSLE), next to the profile it started from; with --trips, the \
                learned weekly speeds are scored on those measured trips beside the true profile's own \
                score. Incidents report how many minutes after their start the estimates through the \
                road were within 20 % and the routes avoided it. Simulated time runs as fast as one core \
                allows; a line per checkpoint goes to standard error, the report to standard output.

                Exit status: 0 after the run, 2 when a file or an incident cannot be used.
                """)

        @OptionGroup var router: RouterArguments

        @Option(name: .customLong("true-speed-profile"), help: ArgumentHelp(
            "The speeds taxis really drive at, hidden from the learner (docs/speed-profile.md).", valueName: "FILE"))
        var trueSpeedProfile: String

        @Option(name: .customLong("incident"), help: ArgumentHelp(
            "A named road's true speed times FACTOR for MINUTES, FROM minutes after the start (repeatable).",
            valueName: "ROAD NAME,FROM,MINUTES,FACTOR"))
        var incidents: [String] = []

        @Option(help: ArgumentHelp("Simulated taxis.", valueName: "N"))
        var taxis = 300

        @Option(name: .customLong("report-at"), help: ArgumentHelp(
            "Simulated hours at which to score, comma-separated; the run ends at the last.", valueName: "HOURS"))
        var reportAt = "1,6,24,168"

        @Option(name: .customLong("gps-noise"), help: ArgumentHelp("The fixes' GPS error (radial standard deviation).", valueName: "METRES"))
        var gpsNoise = 10.0

        @Option(name: .customLong("drop-rate"), help: ArgumentHelp("The fraction of fixes lost, in [0, 1).", valueName: "FRACTION"))
        var dropRate = 0.0

        @Option(name: .customLong("trips"), help: ArgumentHelp(
            "Measured trips to score the learned weekly speeds on (the CSV `graph calibrate` reads).", valueName: "FILE"))
        var trips: String?

        @Option(name: .customLong("start"), help: ArgumentHelp(
            "The simulated start, local time of the graph's city.", valueName: "YYYY-MM-DDTHH:MM"))
        var start = "2026-11-23T06:00"

        @Option(help: ArgumentHelp("Every random choice comes from this seed.", valueName: "S"))
        var seed: UInt64 = 7

        @Flag(help: "Print the report as JSON.")
        var json = false

        func run() throws {
            let serviceRouter = try router.loadRouter()
            let timeZone = serviceRouter.timeZone
            guard let startDate = Self.localDate(start, timeZone: timeZone) else {
                throw ValidationError("--start: '\(start)' is not a local time YYYY-MM-DDTHH:MM")
            }
            var settings = LearningSimulationSettings(start: startDate)
            settings.taxis = taxis
            settings.checkpointHours = reportAt.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            settings.gpsNoiseMetres = gpsNoise
            settings.dropRate = dropRate
            settings.seed = seed
            if let problem = settings.problems.first { throw ValidationError(problem) }

            let truth = try TrueSpeeds(over: serviceRouter, graphPath: router.graph, profile: readSpeedProfile(trueSpeedProfile),
                                       incidents: incidents, start: startDate)
            let measured = try trips.map { try readMeasuredTrips($0, timeZone: timeZone) } ?? []
            let simulation = LearningSimulation(trueRouter: truth.router, serviceRouter: serviceRouter, settings: settings,
                                                incidents: truth.incidents, measuredTrips: measured)
            printError("simulating \(taxis) taxis for \(settings.checkpointHours.max() ?? 0) hours from \(start)")
            let report = simulation.run { checkpoint in printError(checkpoint.progressLine) }
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
                print(String(decoding: try encoder.encode(report), as: UTF8.self))
            } else {
                print(report.text, terminator: "")
            }
        }

        /// `text` (YYYY-MM-DDTHH:MM) as a moment in `timeZone`.
        static func localDate(_ text: String, timeZone: TimeZone) -> Date? {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = timeZone
            formatter.dateFormat = "yyyy-MM-dd'T'HH:mm"
            return formatter.date(from: text)
        }
    }
}

/// Reads a measured trips CSV (as `graph calibrate` does) or exits 2 naming the file.
func readMeasuredTrips(_ path: String, timeZone: TimeZone) throws -> [MeasuredTrip] {
    do {
        return try MeasuredTripsFile.read(String(contentsOfFile: path, encoding: .utf8), timeZone: timeZone).trips
    } catch {
        printError("\(path): \(error)")
        throw ExitCode(2)
    }
}
