import DispatchCore
import DispatchRuntime
import FixRecords
import Fleet
import Foundation
import GeoKit
import ServiceClock
import Storage
import Testing
import Zones

/// The statistics (SPEC D9, A2): written with the log entries that decided
/// them, per zone and per driver, never counted again by a restart's
/// replay, and the queues sampled by the timers.
@Suite(.timeLimit(.minutes(20))) struct DispatcherStatisticsTests {
    static let start = Date(timeIntervalSince1970: 1_790_000_000)
    static let everything = Date(timeIntervalSince1970: 0)..<Date(timeIntervalSince1970: 4_000_000_000)

    /// Each subject's measures added up over every hour.
    static func totals(_ log: any DispatchLog, _ prefix: String) async throws -> [String: [String: Int64]] {
        var totals: [String: [String: Int64]] = [:]
        for count in try await log.counts(ofSubjectsPrefixed: prefix, hours: everything) {
            totals[count.subject, default: [:]][count.measure, default: 0] += count.count
        }
        return totals
    }

    /// Ada refuses, Bob accepts and arrives after 200 s and completes; a
    /// second request, offered to Ada, is cancelled by its passenger.
    static func day(_ dispatcher: Dispatcher, clock: ManualClock) async throws {
        for (taxi, driver) in [("A", "ada"), ("B", "bob")] {
            try await dispatcher.execute(.fleet(.appeared(TaxiID(taxi), zone: "230", at: clock.now)))
            try await dispatcher.execute(.login(TaxiID(taxi), driver: driver))
            try await dispatcher.execute(.setAvailable(TaxiID(taxi)))
            clock.advance(by: .seconds(1))
        }
        try await dispatcher.execute(.request("p1", pickup: DispatcherTests.pickup, zone: "230", destination: nil))
        clock.advance(by: .seconds(5))
        try await dispatcher.execute(.refuse("A"))
        try await dispatcher.accept("B")
        clock.advance(by: .seconds(195))
        try await dispatcher.execute(.arrived("B"))
        try await dispatcher.execute(.passengerAboard("B"))
        try await dispatcher.execute(.completed("B"))
        let second = try await dispatcher.execute(.request("p2", pickup: DispatcherTests.pickup, zone: "230", destination: nil))
        guard case .requestOpened(let id, _, _) = second.first else {
            Issue.record("no second request: \(second)")
            return
        }
        try await dispatcher.execute(.cancel(id))
    }

    @Test func aZoneAndItsDriversAreCountedAsTheLogIsWritten() async throws {
        let log = InMemoryDispatchLog()
        let clock = ManualClock(now: Self.start)
        let dispatcher = try await Dispatcher(log: log, clock: clock)
        try await Self.day(dispatcher, clock: clock)
        await dispatcher.waitForWrites()
        dispatcher.close()

        let zone = try await Self.totals(log, "zone/")["zone/230"] ?? [:]
        #expect(zone["requests"] == 2)
        #expect(zone["offers"] == 3, "p1 to Ada, then to Bob; p2 to Ada")
        #expect(zone["refused"] == 1)
        #expect(zone["accepted"] == 1)
        #expect(zone["served"] == 1)
        #expect(zone["cancelled/by_passenger"] == 1)
        #expect(zone["wait_s/180"] == 1, "Bob arrived 200 s after the request")
        #expect(zone["offer_s/0"] == 2, "both requests were offered at once; a second offer is not a first")
        let drivers = try await Self.totals(log, "driver/")
        #expect(drivers["driver/ada"] == ["offers": 2, "refused": 1])
        #expect(drivers["driver/bob"] == ["offers": 1, "accepted": 1, "served": 1])

        var figures = ZoneFigures()
        for count in try await log.counts(ofSubjectsPrefixed: "zone/230", hours: Self.everything) { figures.add(count) }
        #expect(figures.count(.requests) == 2)
        #expect(figures.seconds(.wait, quantile: 0.5) == 210, "the middle of the bin 180–240 s")
        #expect(figures.seconds(.timeToOffer, quantile: 0.9).map { $0 < 15 } == true)
    }

    /// A restart replays the log into the engine but writes no figure again.
    @Test func aRestartCountsNothingTwice() async throws {
        let log = InMemoryDispatchLog()
        let clock = ManualClock(now: Self.start)
        let first = try await Dispatcher(log: log, clock: clock, snapshotInterval: 5)
        try await Self.day(first, clock: clock)
        await first.waitForWrites()
        first.close()
        let before = try await Self.totals(log, "")

        let second = try await Dispatcher(log: log, clock: ManualClock(now: clock.now), snapshotInterval: 5)
        #expect(try await Self.totals(log, "") == before)
        #expect(await second.snapshot.taxis["B"]?.driver == "bob", "the driver is part of the state a restart rebuilds")
        try await second.execute(.request("p3", pickup: DispatcherTests.pickup, zone: "230", destination: nil))
        await second.waitForWrites()
        second.close()
        #expect(try await Self.totals(log, "zone/")["zone/230"]?["requests"] == 3)
    }

    /// Every interval the timers sample the queues: free taxis per zone and
    /// each driver's time on duty and available, per taxi.
    @Test func theTimersSampleTheQueuesEveryInterval() async throws {
        let log = InMemoryDispatchLog()
        let clock = ManualClock(now: Self.start)
        let dispatcher = try await Dispatcher(log: log, clock: clock, statisticsSampleInterval: .seconds(60))
        try await dispatcher.execute(.fleet(.appeared("A", zone: "230", at: clock.now)))
        try await dispatcher.execute(.login("A", driver: "ada"))
        try await dispatcher.execute(.setAvailable("A"))
        try await dispatcher.execute(.fleet(.appeared("B", zone: "230", at: clock.now)))
        try await dispatcher.execute(.login("B", driver: "bob"))
        let timers = Task { await dispatcher.runTimers() }
        defer { timers.cancel() }
        let deadline = ContinuousClock.now + .seconds(30)
        var samples: Int64 = 0
        while samples < 3, ContinuousClock.now < deadline {
            while clock.sleeperCount == 0 { await Task.yield() }
            clock.advance(by: .seconds(30))
            await dispatcher.waitForWrites()
            samples = try await Self.totals(log, "city")["city"]?["samples"] ?? 0
        }
        dispatcher.close()
        #expect(samples == 3)
        let totals = try await Self.totals(log, "")
        #expect(totals["zone/230"]?["taxis_available"] == 3, "Ada in the queue at each of the 3 samples")
        #expect(totals["driver/ada"] == ["on_duty_s/A": 180, "available_s": 180])
        #expect(totals["driver/bob"] == ["on_duty_s/B": 180], "on duty, not available")
    }

    @Test func aQuantileIsReadFromTheBins() {
        #expect(WaitHistogram.quantile(0.5, of: [:]) == nil)
        #expect(WaitHistogram.quantile(0.5, of: [60: 1]) == 75, "one count: the middle of 60–90 s")
        #expect(WaitHistogram.quantile(0.9, of: [0: 9, 300: 1]) == 15, "nine of ten in the first bin")
        #expect(WaitHistogram.quantile(1, of: [3_600: 2]) == 3_600, "the open bin answers its lower bound")
    }
}
