import Foundation
import GeoKit
import Testing
import Zones
@testable import Routing

@Suite(.timeLimit(.minutes(20))) struct CalibrationTests {
    @Test func accuracyFiguresAreTheTextbookOnes() {
        let accuracy = TravelTimeAccuracy(estimated: [110, 90, 300], measured: [100, 100, 100])
        #expect(abs(accuracy.medianAbsolutePercentageError - 0.1) < 1e-12)
        let expected = ((pow(log(111.0) - log(101.0), 2) + pow(log(91.0) - log(101.0), 2) + pow(log(301.0) - log(101.0), 2)) / 3)
            .squareRoot()
        #expect(abs(accuracy.rootMeanSquaredLogError - expected) < 1e-12)
    }

    @Test func tripsAreReadByColumnNameInTheCitysTimeZone() throws {
        let csv = """
            id,pickup_datetime,pickup_longitude,pickup_latitude,dropoff_longitude,dropoff_latitude,trip_duration
            a,2016-03-14 08:30:00,-73.98,40.75,-73.99,40.74,600
            b,not a time,-73.98,40.75,-73.99,40.74,600
            c,2016-03-14 09:00:00,-73.98,40.75,-73.99,,600
            """
        let read = try MeasuredTripsFile.read(csv, timeZone: TimeZone(identifier: "America/New_York")!)
        #expect(read.trips.count == 1 && read.skippedRows == 2)
        #expect(read.trips.first?.depart == Date(timeIntervalSince1970: 1_457_958_600), "08:30 EDT is 12:30 UTC")
        #expect(read.trips.first?.durationSeconds == 600)
        #expect(throws: MeasuredTripsFile.ReadError.missingColumn("trip_duration")) {
            try MeasuredTripsFile.read("pickup_datetime,pickup_longitude,pickup_latitude,dropoff_longitude,dropoff_latitude\n",
                                       timeZone: .gmt)
        }
    }

    @Test func aProfileWithOverheadReadsBackFromItsText() throws {
        var profile = SpeedProfile.denseCity
        profile.tripOverheadSeconds = 75
        #expect(try SpeedProfile(parsing: profile.text) == profile)
        #expect(throws: SpeedProfileError.self) { try SpeedProfile(parsing: "trip_overhead_s,-5\n") }
    }

    /// Trips that take twice free flow plus a minute: the fit finds both.
    @Test func calibrationRecoversAKnownSlowdownAndOverhead() throws {
        let graph = TestGraphs.grid(20, 20, seed: 3)
        let topology = CCHTopology(graph: graph)
        let free = RoadRouter(graph: graph, topology: topology, speeds: ProfiledEdgeSpeeds(graph: graph, profile: SpeedProfile()),
                          timeZone: .gmt)
        var random = SplitMix64(state: 12)
        var trips: [MeasuredTrip] = []
        while trips.count < 200 {
            let from = graph.coordinates[Int(random.next() % UInt64(graph.nodeCount))]
            let to = graph.coordinates[Int(random.next() % UInt64(graph.nodeCount))]
            let depart = Date(timeIntervalSince1970: 1_795_392_000 + Double(random.next() % 604_800))
            guard let drive = try? free.route(from: from, to: to, depart: depart).durationSeconds, drive > 30 else { continue }
            trips.append(MeasuredTrip(depart: depart, from: from, to: to, durationSeconds: 2 * drive + 60))
        }
        let result = SpeedProfileCalibration.fit(graph: graph, topology: topology, trips: trips, timeZone: .gmt,
                                                 baseline: SpeedProfile())
        #expect(result.profile.tripOverheadSeconds == 60)
        #expect(result.fitted.rootMeanSquaredLogError < 0.02, "\(result.fitted)")
        #expect(result.freeFlow.rootMeanSquaredLogError > 0.5)
        #expect(result.heldOut.rootMeanSquaredLogError < 0.03)
    }

    /// Trips that take twice free flow plus a minute, and half as long again
    /// inside one zone: the fit finds the zone's factor, and leaves the city
    /// outside the zone at the class factors.
    @Test func calibrationRecoversAKnownZoneFactor() throws {
        let graph = TestGraphs.grid(12, 12, seed: 3)
        let topology = CCHTopology(graph: graph)
        let box = try #require(BoundingBox(enclosing: graph.coordinates))
        let middle = Coordinate(longitude: (box.minX + box.maxX) / 2, latitude: (box.minY + box.maxY) / 2)
        let zones = EdgeZones(graph: graph, zoneIDs: ["northeast"]) {
            $0.longitude > middle.longitude && $0.latitude > middle.latitude ? 0 : nil
        }
        var truth = SpeedProfile()
        for hour in 0..<SpeedProfile.hoursPerWeek { truth.setZoneFactor(Float(1 / 1.5), for: "northeast", hourOfWeek: hour) }
        let real = RoadRouter(graph: graph, topology: topology, speeds: ProfiledEdgeSpeeds(graph: graph, profile: truth, zones: zones),
                          timeZone: .gmt)
        var random = SplitMix64(state: 21)
        var trips: [MeasuredTrip] = []
        while trips.count < 150 {
            let from = graph.coordinates[Int(random.next() % UInt64(graph.nodeCount))]
            let to = graph.coordinates[Int(random.next() % UInt64(graph.nodeCount))]
            let depart = Date(timeIntervalSince1970: 1_795_392_000 + Double(random.next() % 604_800))
            guard let drive = try? real.route(from: from, to: to, depart: depart).durationSeconds, drive > 30 else { continue }
            trips.append(MeasuredTrip(depart: depart, from: from, to: to, durationSeconds: 2 * drive + 60))
        }
        let result = SpeedProfileCalibration.fit(graph: graph, topology: topology, zones: zones, trips: trips, timeZone: .gmt,
                                                 baseline: SpeedProfile())
        let fittedZone = result.profile.zoneFactor("northeast", hourOfWeek: 30)
        #expect(abs(Double(fittedZone) - 1 / 1.5) < 0.04, "zone factor \(fittedZone), expected 0.667")
        #expect(result.zonePenalty != nil)
        #expect(result.fitted.rootMeanSquaredLogError < 0.03, "\(result.fitted)")
        #expect(result.heldOut.rootMeanSquaredLogError < 0.04, "\(result.heldOut)")

        let withoutZones = SpeedProfileCalibration.fit(graph: graph, topology: topology, trips: trips, timeZone: .gmt,
                                                       baseline: SpeedProfile())
        #expect(withoutZones.profile.zoneFactors.isEmpty && withoutZones.zonePenalty == nil)
        #expect(withoutZones.fitted.rootMeanSquaredLogError > result.fitted.rootMeanSquaredLogError + 0.02,
                "zones \(result.fitted), without \(withoutZones.fitted)")
    }

    /// The shipped Manhattan profile on the real trips, on a graph that knows
    /// the shipped Manhattan zones: far better than free flow (SPEC R4), and
    /// better than the same profile without its zone factors, routed with the
    /// default snap radius it was fitted with (RMSLE 0.446). Skips when
    /// ../shared/data is absent.
    @Test func theShippedManhattanProfileBeatsFreeFlowOnRealTrips() throws {
        guard let map = RealExtractTests.path("nyc/manhattan.osm.pbf"),
            let tripsPath = RealExtractTests.path("nyc/trips_calibration.csv")
        else {
            print("skipped: nyc/manhattan.osm.pbf or nyc/trips_calibration.csv is absent from \(RealExtractTests.dataFolder.path)")
            return
        }
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let profileURL = repository.appendingPathComponent("Profiles/nyc-manhattan.csv")
        let profile = try SpeedProfile(parsing: String(contentsOf: profileURL, encoding: .utf8))
        let newYork = TimeZone(identifier: "America/New_York")!
        let graph = GraphBuilder.build(try OSMExtract(contentsOf: map), profile: CarProfile()).graph
        let box = try #require(BoundingBox(enclosing: graph.coordinates))
        let trips = try MeasuredTripsFile.read(String(contentsOfFile: tripsPath, encoding: .utf8), timeZone: newYork).trips
            .filter { box.contains($0.from) && box.contains($0.to) && (60...7200).contains($0.durationSeconds) }
        let topology = CCHTopology(graph: graph)
        let zoneSet = try ZoneFileLoader.load(path: repository.appendingPathComponent("Zones/manhattan/zones.geojson").path).zoneSet
        let index = try ZoneIndex(zoneSet: zoneSet)
        let zones = EdgeZones(graph: graph, zoneIDs: zoneSet.zones.map(\.id.text), zoneAt: index.zonePosition(at:))
        func accuracy(_ profile: SpeedProfile, zones: EdgeZones?) -> TravelTimeAccuracy {
            let router = RoadRouter(graph: graph, topology: topology, speeds: ProfiledEdgeSpeeds(graph: graph, profile: profile, zones: zones),
                                timeZone: newYork, tripOverheadSeconds: profile.tripOverheadSeconds)
            let routed = trips.compactMap { trip in
                (try? router.route(from: trip.from, to: trip.to, depart: trip.depart)).map { ($0.durationSeconds, trip.durationSeconds) }
            }
            return TravelTimeAccuracy(estimated: routed.map(\.0), measured: routed.map(\.1))
        }
        let fitted = accuracy(profile, zones: zones), freeFlow = accuracy(SpeedProfile(), zones: zones)
        let zonesIgnored = accuracy(profile, zones: nil)
        #expect(fitted.trips > 600)
        #expect(fitted.rootMeanSquaredLogError < 0.45, "\(fitted)")
        #expect(fitted.rootMeanSquaredLogError < zonesIgnored.rootMeanSquaredLogError, "with zones \(fitted), without \(zonesIgnored)")
        #expect(fitted.rootMeanSquaredLogError < 0.5 * freeFlow.rootMeanSquaredLogError, "fitted \(fitted), free flow \(freeFlow)")
        #expect(fitted.medianAbsolutePercentageError < 0.3)
    }
}
