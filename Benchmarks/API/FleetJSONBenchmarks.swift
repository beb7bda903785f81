import API
import Benchmark
import FixRecords
import Fleet
import Foundation
import GeoKit
import Zones

/// The dispatcher's fleet reads (issue 19), one core: the whole fleet of
/// 10,000 taxis as `GET /v1/fleet` writes it (goal: under 5 ms), and a zone
/// of 1,000 taxis as `GET /v1/zones/{zoneId}/taxis` does, both written by
/// hand (``FleetJSON``), beside `JSONEncoder` on the same documents for
/// comparison. Positions are full-precision coordinates over Manhattan, as
/// NMEA and GT06 terminals give them.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .throughput], warmupIterations: 2,
                                           maxDuration: .seconds(3), maxIterations: 200)
    let fleet = FleetIndex(staleAfter: 90)
    let now = Date(timeIntervalSince1970: 1_790_000_000)
    var generator = SplitMix64(state: 19)
    for taxi in 0..<10_000 {
        let position = TaxiPosition(
            taxiId: TaxiID("TX\(100_000 + taxi)"),
            coordinate: Coordinate(longitude: -74.02 + 0.1 * generator.nextUnit(), latitude: 40.70 + 0.1 * generator.nextUnit()),
            time: now.addingTimeInterval(-30 * generator.nextUnit()), speedKmh: (600 * generator.nextUnit()).rounded() / 10,
            heading: (360 * generator.nextUnit()).rounded(), zoneId: ZoneID(String(taxi % 10 + 1)))
        _ = fleet.update(position, heardAt: now)
    }
    let everyTaxi = fleet.entries(now: now)
    let oneZone = fleet.entries(inZone: "1", now: now)
    let states = ["offDuty", "unavailable", "available", "offered", "busy"]
    let state: @Sendable (TaxiID) -> String = { states[Int($0.text.utf8.last ?? 0) % states.count] }

    Benchmark("GET /v1/fleet document, 10,000 taxis, by hand") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try FleetJSON.fleet(everyTaxi, state: state)) }
    }
    Benchmark("GET /v1/fleet document, 10,000 taxis, JSONEncoder (before)") { benchmark in
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let documents = everyTaxi.map { FleetTaxi(position: TaxiDocument($0), state: state($0.position.taxiId)) }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try encoder.encode(documents)) }
    }
    Benchmark("GET /v1/zones/{zoneId}/taxis document, 1,000 taxis, by hand") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try FleetJSON.zoneTaxis(zoneId: "1", entries: oneZone)) }
    }
    Benchmark("Fleet index read, 10,000 taxis (entries by taxi id)") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(fleet.entries(now: now)) }
    }
}

/// A taxi's position as `JSONEncoder` wrote it before (the API's `TaxiJSON`).
struct TaxiDocument: Encodable {
    var taxiId: String
    var lon: Double
    var lat: Double
    var time: String
    var speedKmh: Double
    var heading: Double
    var zoneId: String?
    var stale: Bool

    init(_ entry: FleetIndex.Entry) {
        taxiId = entry.position.taxiId.text
        lon = entry.position.coordinate.longitude
        lat = entry.position.coordinate.latitude
        time = FixTime.iso8601(entry.position.time)
        speedKmh = entry.position.speedKmh
        heading = entry.position.heading
        zoneId = entry.position.zoneId?.text
        stale = entry.stale
    }
}

/// A taxi of `GET /v1/fleet` as `JSONEncoder` wrote it before.
struct FleetTaxi: Encodable {
    var position: TaxiDocument
    var state: String
}
