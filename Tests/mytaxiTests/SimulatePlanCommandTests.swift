import Foundation
import Testing

/// Issue 18: what a seed decides of a simulated run, printed by
/// `mytaxi simulate plan` without a service: the same seed gives the same
/// plan byte for byte, another seed another plan, and with `--demand`
/// the pickups are the measured trips', dense where the city's are.
@Suite(.timeLimit(.minutes(20))) struct SimulatePlanCommandTests {
    static let zones = CommandRunner.packageRoot.appendingPathComponent("Zones/manhattan/zones.geojson").path
    static let trips = CommandRunner.packageRoot.appendingPathComponent("../shared/data/nyc/trips_calibration.csv").standardized.path
    static let tripsAvailable = FileManager.default.fileExists(atPath: trips)

    /// `mytaxi simulate plan` on the demo city with `arguments`; its standard output.
    private func plan(_ arguments: [String]) async throws -> String {
        let run = try await CommandRunner.run(
            ["simulate", "plan", "--zones", Self.zones, "--graph", try DemoGraph.path(), "--start", "2026-11-23T13:00:00Z"] + arguments)
        #expect(run.status == 0, "\(run.standardError)")
        return run.standardOutput
    }

    @Test func theSameSeedPlansTheSameRunByteForByte() async throws {
        let arguments = ["--taxis", "3", "--passengers", "5", "--requests-per-hour", "120", "--hours", "0.5"]
        let first = try await plan(arguments + ["--seed", "5"])
        let again = try await plan(arguments + ["--seed", "5"])
        let other = try await plan(arguments + ["--seed", "6"])
        #expect(first == again)
        #expect(first != other)

        let lines = first.split(separator: "\n")
        #expect(lines.first == "start 2026-11-23T13:00:00Z")
        #expect(lines.filter { $0.hasPrefix("taxi ") }.count == 3)
        let fixes = lines.filter { $0.hasPrefix("fix TX000002 ") }
        #expect(fixes.count == 60, "a fix every 30 s for half an hour")
        let times = fixes.compactMap { line in line.split(separator: " ").dropFirst(3).first.flatMap { ISO8601DateFormatter().date(from: String($0)) } }
        let gaps = fixes.filter { $0.hasSuffix(" gap") }.count
        #expect(times.count == 60 - gaps)
        #expect(zip(times, times.dropFirst()).allSatisfy { $1.timeIntervalSince($0) >= 30 }, "in order, 30 s apart or more (gaps)")
        let requests = lines.filter { $0.hasPrefix("request ") }
        #expect((30...90).contains(requests.count), "about 60 requests in half an hour at 120 an hour: \(requests.count)")
        #expect(requests.allSatisfy { $0.contains("sim-p0000") && $0.contains(" from ") && $0.contains(" to ") })
    }

    /// `--start-hour`: the run starts at that hour of the day in the graph's time zone, the latest one that
    /// lets it end by the wall clock's time (no fix from the future).
    @Test func aRunStartsAtTheChosenHourOfTheGraphsTimeZone() async throws {
        let run = try await CommandRunner.run([
            "simulate", "plan", "--zones", Self.zones, "--graph", try DemoGraph.path(), "--taxis", "0", "--passengers", "1",
            "--hours", "2", "--speed-up", "10", "--start-hour", "8",
        ])
        #expect(run.status == 0, "\(run.standardError)")
        let first = try #require(run.standardOutput.split(separator: "\n").first)
        let start = try #require(ISO8601DateFormatter().date(from: String(first.dropFirst("start ".count))))
        var newYork = Calendar(identifier: .gregorian)
        newYork.timeZone = try #require(TimeZone(identifier: "America/New_York"))
        #expect(newYork.dateComponents([.hour, .minute, .second], from: start) == DateComponents(hour: 8, minute: 0, second: 0))
        let latest = Date().addingTimeInterval(-(2 * 3600 - 2 * 3600 / 10))
        #expect(start <= latest, "ends by the wall clock's time")
        #expect(start > latest.addingTimeInterval(-86_400), "the latest such hour")

        let wrong = try await CommandRunner.run(["simulate", "plan", "--zones", Self.zones, "--graph", try DemoGraph.path(), "--start-hour", "24"])
        #expect(wrong.status == 2, "misuse")
        #expect(wrong.standardError.contains("start hour must be from 0 to 23, not 24"))
    }

    @Test(.enabled(if: tripsAvailable, "shared data missing: ../shared/data/nyc/trips_calibration.csv"))
    func withDemandThePickupsAreTheMeasuredTripsAndDenseWhereTheirsAre() async throws {
        let arguments = ["--taxis", "0", "--passengers", "50", "--requests-per-hour", "2000", "--hours", "0.5", "--seed", "9"]
        let measured = try await plan(arguments + ["--demand", Self.trips])
        let uniform = try await plan(arguments)
        let csv = try String(contentsOfFile: Self.trips, encoding: .utf8).split(whereSeparator: \.isNewline)
        let header = csv[0].split(separator: ",").map(String.init)
        let columns = try ["pickup_longitude", "pickup_latitude", "dropoff_longitude", "dropoff_latitude"].map { name in
            try #require(header.firstIndex(of: name))
        }
        let fileTrips = csv.dropFirst().compactMap { line -> (pickup: String, dropoff: String)? in
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            let values = columns.compactMap { $0 < cells.count ? Double(cells[$0]) : nil }
            guard values.count == 4 else { return nil }
            return (String(format: "%.6f,%.6f", values[0], values[1]), String(format: "%.6f,%.6f", values[2], values[3]))
        }
        let filePickups = fileTrips.map(\.pickup)
        let measuredPickups = Self.pickups(measured)
        #expect(measuredPickups.count > 500)
        #expect(Set(measuredPickups).isSubset(of: Set(filePickups)), "every pickup is a measured trip's")

        // The requests are spread over the zones as the file's trips the simulator can use are (both ends in a
        // zone, within the roads' extent, which the uniform places span), much more closely than uniform places.
        let uniformPickups = Self.pickups(uniform)
        let uniformZones = try await Self.zones(of: uniformPickups)
        let extent = uniformPickups.compactMap(Self.coordinate)
        let (lons, lats) = (extent.map(\.lon), extent.map(\.lat))
        func inExtent(_ point: String) -> Bool {
            guard let (lon, lat) = Self.coordinate(point), let minLon = lons.min(), let maxLon = lons.max(),
                  let minLat = lats.min(), let maxLat = lats.max() else { return false }
            return (minLon...maxLon).contains(lon) && (minLat...maxLat).contains(lat)
        }
        let usable = fileTrips.filter { inExtent($0.pickup) && inExtent($0.dropoff) }
        let (pickupZones, dropoffZones) = (try await Self.zones(of: usable.map(\.pickup)), try await Self.zones(of: usable.map(\.dropoff)))
        let fileShares = Self.shares(zip(pickupZones, dropoffZones).filter { !$0.isEmpty && !$1.isEmpty }.map(\.0))
        let measuredDistance = Self.distance(Self.shares(try await Self.zones(of: measuredPickups)), fileShares)
        let uniformDistance = Self.distance(Self.shares(uniformZones), fileShares)
        #expect(measuredDistance < 0.12, "the requests' zones against the file's: \(measuredDistance)")
        #expect(measuredDistance < uniformDistance / 2, "with demand \(measuredDistance), uniform \(uniformDistance)")
    }

    /// The pickups of the plan's requests, `lon,lat`.
    private static func pickups(_ plan: String) -> [String] {
        plan.split(separator: "\n").filter { $0.hasPrefix("request ") }.compactMap { line in
            guard let from = line.range(of: " from ") else { return nil }
            return line[from.upperBound...].split(separator: " ").first.map(String.init)
        }
    }

    /// The zone of each point (`mytaxi zones lookup`), empty outside every zone.
    private static func zones(of points: [String]) async throws -> [String] {
        let lookup = try await CommandRunner.run(["zones", "lookup", "--zones", Self.zones], input: points.joined(separator: "\n") + "\n")
        #expect(lookup.status == 0, "\(lookup.standardError)")
        return lookup.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// `lon,lat` as numbers.
    private static func coordinate(_ point: String) -> (lon: Double, lat: Double)? {
        let parts = point.split(separator: ",").compactMap { Double($0) }
        return parts.count == 2 ? (parts[0], parts[1]) : nil
    }

    /// Each zone's share of the points in a zone.
    private static func shares(_ zones: [String]) -> [String: Double] {
        let inZones = zones.filter { !$0.isEmpty }
        return inZones.reduce(into: [:]) { $0[$1, default: 0] += 1 / Double(inZones.count) }
    }

    /// The total variation distance of two distributions over zones: 0 the same, 1 disjoint.
    private static func distance(_ one: [String: Double], _ other: [String: Double]) -> Double {
        Set(one.keys).union(other.keys).map { abs((one[$0] ?? 0) - (other[$0] ?? 0)) }.reduce(0, +) / 2
    }
}
