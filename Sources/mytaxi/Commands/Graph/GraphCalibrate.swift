import ArgumentParser
import Foundation
import GeoKit
import Routing

extension Mytaxi.Graph {
    /// `mytaxi graph calibrate --graph CITY.graph --trips TRIPS.csv -o PROFILE`: fit the speed profile to real trips.
    struct Calibrate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Fit the city's weekly speed profile to measured trips and report the error before and after.",
            discussion: """
                TRIPS.csv has the columns of the NYC TLC trip records: pickup_datetime (local time), \
                pickup_longitude, pickup_latitude, dropoff_longitude, dropoff_latitude, trip_duration \
                (seconds). Trips with both ends inside the graph's bounding box and a duration within \
                the limits are routed; the fitted profile (road-class and hour-of-week factors, a \
                per-trip overhead, a time factor for narrow streets (at most 2 lanes per direction) \
                and, when the graph was built with --zones, one factor per zone the routes cross, \
                shrunk toward 1 by a penalty chosen by cross-validation; docs/speed-profile.md) is \
                written to the output file, ready for `graph build --speed-profile` or `eta \
                --speed-profile`. Prints the median absolute percentage error and RMSLE of free flow, \
                of the graph's current profile, of the fitted profile, and of a fit on every other \
                trip scored on the rest, each routed on its own times. Trips are routed with \
                --snap-radius as `eta` routes them, so fit with the radius you will route with.
                """)

        @OptionGroup var router: RouterArguments

        @Option(help: ArgumentHelp("The measured trips (CSV).", valueName: "TRIPS.csv"))
        var trips: String

        @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the fitted profile.", valueName: "PROFILE.csv"))
        var output: String

        @Option(name: .customLong("min-duration"), help: ArgumentHelp("Shorter trips are left out, in seconds.", valueName: "SECONDS"))
        var minDuration: Double = 60

        @Option(name: .customLong("max-duration"), help: ArgumentHelp("Longer trips are left out, in seconds.", valueName: "SECONDS"))
        var maxDuration: Double = 7200

        func run() throws {
            let current = try router.loadRouter()
            let text: String
            do {
                text = try String(contentsOfFile: trips, encoding: .utf8)
            } catch {
                printError("\(trips): cannot read the file (\(error.localizedDescription))")
                throw ExitCode(2)
            }
            let read: (trips: [MeasuredTrip], skippedRows: Int)
            do {
                read = try MeasuredTripsFile.read(text, timeZone: current.timeZone)
            } catch {
                printError("\(trips): \(error)")
                throw ExitCode(2)
            }
            guard let box = BoundingBox(enclosing: current.graph.coordinates) else {
                printError("\(router.graph): the graph has no roads")
                throw ExitCode(2)
            }
            let inside = read.trips.filter {
                box.contains($0.from) && box.contains($0.to) && (minDuration...maxDuration).contains($0.durationSeconds)
            }
            printError("\(read.trips.count) trips read (\(read.skippedRows) rows skipped), \(inside.count) inside the map "
                       + "and between \(Int(minDuration)) s and \(Int(maxDuration)) s")
            let baseline = (current.speeds as? ProfiledEdgeSpeeds)?.profile ?? .denseCity
            let zones = (current.speeds as? ProfiledEdgeSpeeds)?.zones
            if zones == nil { printError("\(router.graph): built without --zones, so no zone factors are fitted") }
            let result = SpeedProfileCalibration.fit(
                graph: current.graph, topology: current.topology, zones: zones, trips: inside, timeZone: current.timeZone,
                baseline: baseline, maxSnapDistanceMetres: router.maxSnapMetres,
                snapRadiusMetres: router.snapRadiusMetres, progress: { printError($0) })
            do {
                try result.profile.text.write(toFile: output, atomically: true, encoding: .utf8)
            } catch {
                printError("\(output): cannot write the profile (\(error.localizedDescription))")
                throw ExitCode(1)
            }
            print("""
                trips: \(result.routedTrips) routed, \(result.unroutableTrips) unroutable
                free flow: \(result.freeFlow)
                current profile: \(result.baseline)
                fitted profile: \(result.fitted)
                held out (fit on every other trip, scored on the rest): \(result.heldOut)
                trip overhead: \(Int(result.profile.tripOverheadSeconds)) s
                narrow streets: \(String(format: "%.2f", result.narrowTimeFactor)) x the time of their class
                zone factors: \(zoneSummary(result))
                profile: \(output)
                """)
        }

        /// How many zone factors were fitted, their range and the penalty, or why none.
        private func zoneSummary(_ result: SpeedProfileCalibration.Result) -> String {
            guard let penalty = result.zonePenalty else { return "none (graph built without --zones)" }
            let factors = result.profile.zoneFactors.values.map { $0[0] }
            guard let slowest = factors.min(), let fastest = factors.max() else { return "none (no route crosses a zone)" }
            return "\(factors.count) zones, speed x\(slowest) to x\(fastest), penalty \(penalty)"
        }
    }
}
