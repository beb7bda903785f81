import Benchmark
import DispatchCore
import DispatchRuntime
import FixRecords
import Fleet
import Foundation
import GeoKit
import Routing
import ServiceClock
import SQLiteStorage
import Storage
import Zones

/// The dispatcher's request path (SPEC D3), in process: 10,000 available
/// taxis spread over the 263 NYC taxi zones, then 1,000 passengers asking
/// at once, each request made durable in the SQLite dispatch log (group
/// commit, synchronous=FULL) before it returns with its first offer.
/// One iteration is 1,000 simultaneous requests; `request latency` is each
/// one's time from the call to its answer (the first offer), commit included.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput], warmupIterations: 1, maxDuration: .seconds(10), maxIterations: 30)
    let latency = BenchmarkMetric.custom("request latency (µs)", polarity: .prefersSmaller, useScalingFactor: false)
    Benchmark("1,000 simultaneous requests to 10,000 taxis in 263 zones, each durable before its first offer",
              configuration: .init(metrics: [.wallClock, .throughput, latency])) { (benchmark: Benchmark, city: BenchmarkCity) in
        for _ in benchmark.scaledIterations {
            benchmark.startMeasurement()
            let latencies = try await city.requestAll()
            benchmark.stopMeasurement()
            for microseconds in latencies { benchmark.measurement(latency, microseconds) }
            try await city.cancelAll()
        }
    } setup: {
        try await BenchmarkCity()
    } teardown: {
        BenchmarkCity.removeScratch()
    }
    // The same burst's floor, in the same run: 1,000 calls each hopping
    // onto an actor and waiting for a writer thread that writes nothing.
    Benchmark("Floor of the 1,000-request burst: 1,000 simultaneous calls through an actor and a group commit that writes nothing",
              configuration: .init(metrics: [.wallClock, .throughput, latency])) { (benchmark: Benchmark, floor: BurstFloor) in
        for _ in benchmark.scaledIterations {
            benchmark.startMeasurement()
            let latencies = try await burstOfOneThousand { _ in await floor.execute() }
            benchmark.stopMeasurement()
            for microseconds in latencies { benchmark.measurement(latency, microseconds) }
        }
    } setup: {
        BurstFloor()
    }
    // A request arriving alone, as most do: from the call to its first
    // offer, durable (one commit, one fsync), then cancelled unmeasured.
    Benchmark("One request to 10,000 taxis in 263 zones, durable before its first offer",
              configuration: .init(metrics: [.wallClock, .throughput], maxDuration: .seconds(10), maxIterations: 2_000)) {
        (benchmark: Benchmark, city: BenchmarkCity) in
        for _ in benchmark.scaledIterations {
            benchmark.startMeasurement()
            let id = try await city.requestOne()
            benchmark.stopMeasurement()
            try await city.dispatcher.record(.cancel(id))
            await city.dispatcher.waitForWrites()
        }
    } setup: {
        try await BenchmarkCity()
    } teardown: {
        BenchmarkCity.removeScratch()
    }
    // SPEC D4: the dispatcher's nearest zones with free taxis for a pickup,
    // over 2,000 free taxis at random road nodes of the Midtown demo map, one
    // many-to-one router query (the taxis' positions snapped when their fixes
    // arrived, not at query time). Before each query one taxi moves to
    // another node of its zone, which the query's own snapper step snaps: at
    // the benchmark's rate, more moves than 2,000 taxis reporting every few
    // seconds would make.
    Benchmark("Nearest zones with free taxis: 2,000 free taxis, Midtown graph, router many-to-one included",
              configuration: .init(metrics: [.wallClock, .throughput], maxDuration: .seconds(10), maxIterations: 2_000)) {
        (benchmark: Benchmark, city: MidtownFleet) in
        for _ in benchmark.scaledIterations {
            city.moveNextTaxi()
            let choices = await city.dispatcher.nearestZonesWithFreeTaxis(to: city.nextPickup())
            guard !choices.isEmpty else { throw BenchmarkFailure.noZone }
        }
    } setup: {
        try await MidtownFleet(freeTaxis: 2_000)
    }
    // SPEC D10: a shared request matched among 2,000 taxis, two in three
    // already carrying riders: the 30 nearest as candidates, one router
    // table (four CCH queries over their places), the cheapest insertion
    // into each itinerary. The goal: within 5 ms at the 99th percentile.
    Benchmark("Shared ride match: 2,000 taxis, 30 candidates, Midtown graph, router table included",
              configuration: .init(metrics: [.wallClock, .throughput], maxDuration: .seconds(10), maxIterations: 2_000)) {
        (benchmark: Benchmark, fleet: SharingFleet) in
        for _ in benchmark.scaledIterations {
            blackHole(try fleet.matchNext())
        }
    } setup: {
        try SharingFleet(taxis: 2_000)
    }
    // The fleet's events as the ingest path hands them over: each taxi moving
    // to the next zone, recorded without waiting, then one durable command
    // behind them all (the log is written in order).
    Benchmark("10,000 zone changes recorded and made durable") { (benchmark: Benchmark, city: BenchmarkCity) in
        for _ in benchmark.scaledIterations {
            try await city.moveEveryTaxi()
        }
    } setup: {
        try await BenchmarkCity()
    } teardown: {
        BenchmarkCity.removeScratch()
    }
}

/// A dispatcher on a fresh SQLite log in a temporary directory, with
/// 10,000 logged-in, available taxis over 263 zones.
final class BenchmarkCity: @unchecked Sendable {
    /// Where this process's cities keep their logs: removed by each
    /// benchmark's teardown, as the benchmark runner may exit without
    /// releasing a benchmark's state (a city's log grows to some 350 MB).
    static let scratch = FileManager.default.temporaryDirectory
        .appendingPathComponent("mytaxi-dispatch-bench-\(ProcessInfo.processInfo.processIdentifier)")
    static let zones = (1...263).map { ZoneID(String($0)) }
    static let taxis = (0..<10_000).map { TaxiID("T\($0)") }
    let directory: String
    let dispatcher: Dispatcher
    let clock = SystemClock()
    private var round = 0

    init() async throws {
        directory = Self.scratch.appendingPathComponent(UUID().uuidString).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        dispatcher = try await Dispatcher(log: try SQLiteDispatchLog(directory: directory), clock: clock)
        for (index, taxi) in Self.taxis.enumerated() {
            try await dispatcher.record(.fleet(.appeared(taxi, zone: Self.zones[index % Self.zones.count], at: clock.now)))
            try await dispatcher.record(.login(taxi))
            try await dispatcher.record(.setAvailable(taxi))
        }
        try await dispatcher.execute(.tick)
    }

    deinit {
        dispatcher.close()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Removes every city's log this process made.
    static func removeScratch() {
        try? FileManager.default.removeItem(at: scratch)
    }

    /// 1,000 passengers ask at once, each in the next zone; returns each
    /// request's latency in microseconds.
    func requestAll() async throws -> [Int] {
        round += 1
        let dispatcher = dispatcher
        let round = round
        return try await burstOfOneThousand { passenger in
            let events = try await dispatcher.execute(.request(
                PassengerID("P\(passenger)"), pickup: Coordinate(longitude: -73.98, latitude: 40.75),
                zone: Self.zones[(passenger + round) % Self.zones.count], destination: nil))
            guard events.contains(where: { if case .offerMade = $0 { true } else { false } }) else {
                throw BenchmarkFailure.noOffer(events)
            }
        }
    }

    /// One passenger asks in the next zone; returns the request's id once it is offered, durably.
    func requestOne() async throws -> RideRequestID {
        round += 1
        let events = try await dispatcher.execute(.request(
            PassengerID("Alone\(round)"), pickup: Coordinate(longitude: -73.98, latitude: 40.75),
            zone: Self.zones[round % Self.zones.count], destination: nil))
        guard case .requestOpened(let id, _, _) = events.first,
              events.contains(where: { if case .offerMade = $0 { true } else { false } }) else {
            throw BenchmarkFailure.noOffer(events)
        }
        return id
    }

    /// Cancels every open request, so the next round finds the taxis free
    /// again, and waits until the cancellations are written, so the next
    /// round does not queue behind them.
    func cancelAll() async throws {
        for id in await dispatcher.snapshot.requests.keys {
            try await dispatcher.record(.cancel(id))
        }
        await dispatcher.waitForWrites()
    }

    /// Every taxi reports from the next zone; the dwell is over at the end.
    func moveEveryTaxi() async throws {
        round += 1
        for (index, taxi) in Self.taxis.enumerated() {
            let from = Self.zones[(index + round - 1) % Self.zones.count]
            let to = Self.zones[(index + round) % Self.zones.count]
            try await dispatcher.record(.fleet(.changedZone(taxi, from: from, to: to, at: clock.now)))
        }
        try await dispatcher.execute(.tick)
    }
}

enum BenchmarkFailure: Error {
    case noOffer([DispatchEvent])
    case noZone
}

/// The shipped demo map (Midtown Manhattan, its 20 taxi zones) with free
/// taxis at random road nodes in the live fleet index, their positions
/// snapped by the background snapper's step, and a dispatcher that asks its router.
final class MidtownFleet: @unchecked Sendable {
    let dispatcher: Dispatcher
    private let fleet: FleetIndex
    private let pickups: [Coordinate]
    private var next = 0
    /// For each taxi in turn, another road node in its zone to move to.
    private let moves: [(taxi: TaxiID, coordinate: Coordinate, zone: ZoneID)]
    private var nextMove = 0

    init(freeTaxis: Int) async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let graph = GraphBuilder.build(
            try OSMExtract(contentsOf: root.appendingPathComponent("Maps/manhattan-midtown.osm.pbf").path), profile: CarProfile()).graph
        let router = RoadRouter(graph: graph, timeZone: TimeZone(identifier: "America/New_York") ?? .gmt)
        let zones = try ZoneIndex(zoneSet: try ZoneFileLoader.load(path: root.appendingPathComponent("Zones/manhattan/zones.geojson").path).zoneSet)
        let places = graph.coordinates.compactMap { coordinate in zones.zone(at: coordinate).map { (coordinate, $0.id) } }
        var random = SplitMix64(state: 2026)
        let fleet = FleetIndex()
        var zoneOf: [TaxiID: ZoneID] = [:]
        let now = Date()
        for number in 0..<freeTaxis {
            let place = places[Int(random.next() % UInt64(places.count))]
            fleet.update(TaxiPosition(taxiId: TaxiID("T\(number)"), coordinate: place.0, time: now, speedKmh: 0, heading: 0,
                                      zoneId: place.1), heardAt: now)
            zoneOf[TaxiID("T\(number)")] = place.1
        }
        pickups = (0..<100).map { _ in places[Int(random.next() % UInt64(places.count))].0 }
        let placesByZone = Dictionary(grouping: places, by: \.1).mapValues { $0.map(\.0) }
        moves = zoneOf.sorted { $0.key < $1.key }.map { taxi, zone in
            let choices = placesByZone[zone] ?? []
            return (taxi, choices[Int(random.next() % UInt64(choices.count))], zone)
        }
        self.fleet = fleet
        let etas = RouterPickupETAs(router: router, fleet: fleet)
        etas.snapper.step()
        dispatcher = try await Dispatcher(log: InMemoryDispatchLog(), clock: SystemClock(), etas: etas)
        for (taxi, zone) in zoneOf.sorted(by: { $0.key < $1.key }) {
            try await dispatcher.record(.fleet(.appeared(taxi, zone: zone, at: Date())))
            try await dispatcher.record(.login(taxi))
            try await dispatcher.record(.setAvailable(taxi))
        }
        try await dispatcher.execute(.tick)
    }

    deinit {
        dispatcher.close()
    }

    /// The next taxi in turn reports a fix at another node of its zone.
    func moveNextTaxi() {
        defer { nextMove = (nextMove + 1) % moves.count }
        let move = moves[nextMove]
        let now = Date()
        fleet.update(TaxiPosition(taxiId: move.taxi, coordinate: move.coordinate, time: now, speedKmh: 0, heading: 0,
                                  zoneId: move.zone), heardAt: now)
    }

    /// The next of 100 pickups at random road nodes.
    func nextPickup() -> Coordinate {
        defer { next = (next + 1) % pickups.count }
        return pickups[next]
    }
}
