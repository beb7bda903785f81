import DispatchCore
import DispatchRuntime
import FixRecords
import Fleet
import Foundation
import GeoKit
import Prometheus
import ServiceClock
import Storage
import Synchronization
import Testing
import Zones

/// A log that fails the writes it is told to fail, and otherwise keeps
/// everything in memory.
final class FlakyDispatchLog: DispatchLog {
    let inner = InMemoryDispatchLog()
    let failuresLeft = Mutex(0)

    func write(_ writes: [DispatchLogWrite]) throws(StorageError) {
        let fail = failuresLeft.withLock { left in
            defer { left = max(0, left - 1) }
            return left > 0
        }
        if fail { throw .writeFailed(reason: "No space left on device") }
        try inner.write(writes)
    }

    func latestSnapshot() async throws(StorageError) -> DispatchLogSnapshot? { try await inner.latestSnapshot() }
    func history(ofPassenger passenger: String, since: Date, limit: Int) async throws(StorageError) -> [RideHistoryRecord] {
        try await inner.history(ofPassenger: passenger, since: since, limit: limit)
    }
    func history(ofTaxi taxi: String, since: Date, limit: Int) async throws(StorageError) -> [RideHistoryRecord] {
        try await inner.history(ofTaxi: taxi, since: since, limit: limit)
    }
    func history(ofPassengersPrefixed prefix: String, since: Date, limit: Int) async throws(StorageError) -> [RideHistoryRecord] {
        try await inner.history(ofPassengersPrefixed: prefix, since: since, limit: limit)
    }
    func endedRide(_ ride: String) async throws(StorageError) -> RideHistoryRecord? { try await inner.endedRide(ride) }
    func entries(after sequence: Int64, limit: Int) async throws(StorageError) -> [DispatchLogEntry] {
        try await inner.entries(after: sequence, limit: limit)
    }
    func undeliveredNotifications(for recipient: String, limit: Int) async throws(StorageError) -> [StoredNotification] {
        try await inner.undeliveredNotifications(for: recipient, limit: limit)
    }
    func markNotificationsDelivered(_ marks: [(recipient: String, through: NotificationKey)]) async throws(StorageError) {
        try await inner.markNotificationsDelivered(marks)
    }
    func counts(ofSubjectsPrefixed prefix: String, hours: Range<Date>) async throws(StorageError) -> [HourlyCount] {
        try await inner.counts(ofSubjectsPrefixed: prefix, hours: hours)
    }
    func anonymise(passenger: String, as replacement: String, recipient: String?) async throws(StorageError) -> Int {
        try await inner.anonymise(passenger: passenger, as: replacement, recipient: recipient)
    }
}

/// The dispatcher: every command durable before it is told, the state
/// rebuilt exactly from the log, timers resumed with the time they had left.
@Suite(.timeLimit(.minutes(20))) struct DispatcherTests {
    static let pickup = Coordinate(longitude: -73.9855, latitude: 40.7580)

    /// Two available taxis in zone 230 and a request offered to the first.
    static func rideScenario(_ dispatcher: Dispatcher, clock: ManualClock) async throws -> RideRequestID {
        for taxi: TaxiID in ["A", "B"] {
            try await dispatcher.execute(.fleet(.appeared(taxi, zone: "230", at: clock.now)))
            try await dispatcher.execute(.login(taxi))
            try await dispatcher.execute(.setAvailable(taxi))
            clock.advance(by: .seconds(1))
        }
        let events = try await dispatcher.execute(.request("p1", pickup: pickup, zone: "230", destination: nil))
        guard case .requestOpened(let id, _, _) = events.first else {
            Issue.record("no request opened: \(events)")
            return RideRequestID(0)
        }
        return id
    }

    @Test func aReopenedLogGivesBackTheSameState() async throws {
        let log = InMemoryDispatchLog()
        let clock = ManualClock(now: Date(timeIntervalSince1970: 1_790_000_000))
        let dispatcher = try await Dispatcher(log: log, clock: clock, snapshotInterval: 4)
        let id = try await Self.rideScenario(dispatcher, clock: clock)
        clock.advance(by: .seconds(5))
        try await dispatcher.execute(.refuse("A"))
        let before = await dispatcher.snapshot
        await dispatcher.finishSnapshots()
        dispatcher.close()
        #expect(try await log.latestSnapshot()?.sequence == 8, "8 entries with a snapshot every 4")

        let reopened = try await Dispatcher(log: log, clock: ManualClock(now: clock.now), snapshotInterval: 4)
        #expect(await reopened.snapshot == before)
        #expect(await reopened.snapshot.state(of: "B") == .offered(id))
        #expect(await reopened.logSequence == 8)
        reopened.close()
    }

    /// A log longer than a page (``Dispatcher/logPageSize``) after its
    /// snapshot is restored whole, and a node that restores it writes a
    /// snapshot at its first command instead of after another interval:
    /// owners that kept changing may have written none for a long time.
    @Test func aLongStretchWithoutSnapshotIsRestoredWholeAndSnapshottedAtOnce() async throws {
        let log = InMemoryDispatchLog()
        let clock = ManualClock(now: Date(timeIntervalSince1970: 1_790_000_000))
        let first = try await Dispatcher(log: log, clock: clock, snapshotInterval: 1_000_000)
        for number in 0..<(Dispatcher.logPageSize + 500) {
            try await first.execute(.fleet(.appeared(TaxiID("T\(number)"), zone: "230", at: clock.now)))
        }
        let before = await first.snapshot
        let written = await first.logSequence
        first.close()
        #expect(try await log.latestSnapshot() == nil)

        let next = try await Dispatcher(log: log, clock: ManualClock(now: clock.now), snapshotInterval: 1_000)
        #expect(await next.snapshot == before)
        #expect(await next.logSequence == written)
        try await next.execute(.login("T0"))
        await next.finishSnapshots()
        #expect(try await log.latestSnapshot()?.sequence == written + 1, "its first entry came with a snapshot")
        next.close()
    }

    /// SPEC D3 across a restart: an offer with 12 s left when its last
    /// command was logged still has 12 s after the restart.
    @Test func aPendingOfferResumesWithTheTimeItHadLeft() async throws {
        let log = InMemoryDispatchLog()
        let clock = ManualClock(now: Date(timeIntervalSince1970: 1_790_000_000))
        let dispatcher = try await Dispatcher(log: log, clock: clock)
        let id = try await Self.rideScenario(dispatcher, clock: clock)
        clock.advance(by: .seconds(3))
        dispatcher.close()

        let restartClock = ManualClock(now: clock.now.addingTimeInterval(60))
        let reopened = try await Dispatcher(log: log, clock: restartClock)
        restartClock.advance(by: .seconds(14))
        #expect(try await reopened.execute(.tick) == [])
        #expect(await reopened.snapshot.state(of: "A") == .offered(id))
        restartClock.advance(by: .seconds(1))
        let events = try await reopened.execute(.tick)
        #expect(events.contains(.offerTimedOut(id, taxi: "A")))
        #expect(await reopened.snapshot.state(of: "B") == .offered(id))
        reopened.close()
    }

    /// A command whose entry could not be written changed nothing and told
    /// nobody; the dispatcher works on once the store does.
    @Test func aFailedWriteLeavesNoTraceAndTheNextCommandWorks() async throws {
        let log = FlakyDispatchLog()
        let clock = ManualClock(now: Date(timeIntervalSince1970: 1_790_000_000))
        let dispatcher = try await Dispatcher(log: log, clock: clock)
        try await dispatcher.execute(.fleet(.appeared("A", zone: "230", at: clock.now)))
        try await dispatcher.execute(.login("A"))
        let before = await dispatcher.snapshot
        log.failuresLeft.withLock { $0 = 1 }
        await #expect(throws: DispatcherError.storage(.writeFailed(reason: "No space left on device"))) {
            try await dispatcher.execute(.setAvailable("A"))
        }
        #expect(await dispatcher.snapshot == before)
        try await dispatcher.execute(.setAvailable("A"))
        #expect(await dispatcher.snapshot.taxiQueue(in: "230") == ["A"])
        #expect(try await log.entries(after: 0).count == 3)

        dispatcher.close()
        var published: [Notice] = []
        for await notices in dispatcher.notices {
            published += notices.board
            if published.contains(where: { $0.kind == "taxi_joined_queue" }) { break }
        }
        #expect(published.filter { $0.kind == "driver_state" && $0.taxiId == "A" && $0.state == "available" }.count == 1,
                "the lost command's events were never published")
    }

    @Test func aRejectedCommandIsNotLogged() async throws {
        let log = InMemoryDispatchLog()
        let clock = ManualClock(now: Date(timeIntervalSince1970: 1_790_000_000))
        let dispatcher = try await Dispatcher(log: log, clock: clock)
        await #expect(throws: DispatcherError.rejected(.notLoggedIn("A"))) {
            try await dispatcher.execute(.setAvailable("A"))
        }
        #expect(try await log.entries(after: 0).isEmpty)
        dispatcher.close()
    }

    @Test func aCommandWithAPositionThatIsNotOneIsRefusedAndNotLogged() async throws {
        let log = InMemoryDispatchLog()
        let clock = ManualClock(now: Date(timeIntervalSince1970: 1_790_000_000))
        let dispatcher = try await Dispatcher(log: log, clock: clock)
        let nowhere = Coordinate(longitude: .nan, latitude: 40.7)
        await #expect(throws: DispatcherError.invalid("the pickup \(nowhere) is not a WGS84 position")) {
            try await dispatcher.execute(.request("p1", pickup: nowhere, zone: "230", destination: nil))
        }
        #expect(await dispatcher.snapshot.requests.isEmpty)
        #expect(try await log.entries(after: 0).isEmpty)
        dispatcher.close()
    }

    /// The timer loop fires an offer's timeout when the clock reaches it.
    @Test func theTimerLoopTimesOffersOut() async throws {
        let clock = ManualClock(now: Date(timeIntervalSince1970: 1_790_000_000))
        let dispatcher = try await Dispatcher(log: InMemoryDispatchLog(), clock: clock)
        let id = try await Self.rideScenario(dispatcher, clock: clock)
        let timers = Task { await dispatcher.runTimers() }
        defer { timers.cancel() }
        for _ in 0..<100 {
            while clock.sleeperCount == 0 { await Task.yield() }
            if await dispatcher.snapshot.state(of: "B") == .offered(id) { break }
            clock.advance(by: .milliseconds(250))
        }
        #expect(await dispatcher.snapshot.state(of: "B") == .offered(id))
        #expect(await dispatcher.snapshot.requests[id]?.triedTaxis == ["A", "B"])
        dispatcher.close()
    }

    /// SPEC D9, I7: what each durable command decided is counted per zone,
    /// and the engine's state shows as gauges.
    @Test func requestsOffersRefusalsAndWaitsAreCountedPerZone() async throws {
        let registry = PrometheusCollectorRegistry()
        let metrics = DispatchMetrics(factory: PrometheusMetricsFactory(registry: registry))
        let clock = ManualClock(now: Date(timeIntervalSince1970: 1_790_000_000))
        let dispatcher = try await Dispatcher(log: InMemoryDispatchLog(), clock: clock, metrics: metrics)
        _ = try await Self.rideScenario(dispatcher, clock: clock)
        try await dispatcher.execute(.refuse("A"))
        try await dispatcher.accept("B")
        clock.advance(by: .seconds(200))
        try await dispatcher.execute(.arrived("B"))
        metrics.show(await dispatcher.snapshot)
        dispatcher.close()
        let text = registry.emitToString()
        for line in [
            #"mytaxi_dispatch_requests_total{zone="230"} 1"#, #"mytaxi_dispatch_offers_total{zone="230"} 2"#,
            #"mytaxi_dispatch_refusals_total{zone="230"} 1"#, #"mytaxi_dispatch_wait_seconds_count{zone="230"} 1"#,
            "mytaxi_dispatch_open_requests 1", #"mytaxi_dispatch_queue_length{zone="230"} 1"#,
        ] {
            #expect(text.contains(line), "\(line) missing from\n\(text)")
        }
    }

    /// SPEC D8: upcoming reservations soonest first; rides and bookings that
    /// ended, most recent first, for the passenger and for the driver.
    @Test func historyShowsWhatIsComingAndWhatEnded() async throws {
        let log = InMemoryDispatchLog()
        let clock = ManualClock(now: Date(timeIntervalSince1970: 1_790_000_000))
        let dispatcher = try await Dispatcher(log: log, clock: clock)
        let id = try await Self.rideScenario(dispatcher, clock: clock)
        try await dispatcher.accept("A")
        try await dispatcher.execute(.passengerAboard("A"))
        clock.advance(by: .seconds(900))
        try await dispatcher.execute(.completed("A"))
        let later = clock.now.addingTimeInterval(5 * 3600), sooner = clock.now.addingTimeInterval(3 * 3600)
        try await dispatcher.execute(.reserve("p1", origin: Self.pickup, zone: "230", destination: Self.pickup, pickupAt: later))
        try await dispatcher.execute(.reserve("p1", origin: Self.pickup, zone: "230", destination: Self.pickup, pickupAt: sooner))
        try await dispatcher.execute(.reserve(
            "p1", origin: Self.pickup, zone: "230", destination: Self.pickup, pickupAt: later.addingTimeInterval(600)))
        try await dispatcher.execute(.cancelReservation(ReservationID(3)))

        let history = try await dispatcher.history(ofPassenger: "p1")
        #expect(history.upcoming.map(\.pickupAt) == [sooner, later])
        #expect(history.past.map(\.outcome) == [.reservationCancelled, .completed])
        #expect(history.past.last?.ride == id.description && history.past.last?.taxi == "A")
        #expect(try await dispatcher.history(ofTaxi: "A").map(\.ride) == [id.description])
        #expect(try await dispatcher.history(ofTaxi: "B").isEmpty, "B served no ride")
        dispatcher.close()
    }
}
