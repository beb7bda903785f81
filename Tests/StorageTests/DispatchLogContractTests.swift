import Foundation
import GeoKit
import PostgresStorage
import SQLiteStorage
import Testing
import Storage

/// The `DispatchLog` contract, run against every implementation: what the
/// dispatcher's restart relies on, whichever store is behind it.
@Suite(.timeLimit(.minutes(20))) struct DispatchLogContractTests {
    /// The implementations under test, by name.
    static let implementations = ["in-memory", "sqlite"] + PostgresTestDatabase.implementation("postgresql")

    /// A fresh, empty log of kind `name`, a way to open it again (nil when it
    /// does not outlive the process), and what removes it afterwards.
    static func make(_ name: String) throws -> (log: any DispatchLog, reopen: (() throws -> any DispatchLog)?, cleanUp: () -> Void) {
        switch name {
        case "postgresql":
            let database = try PostgresTestDatabase.make()
            return (PostgresDispatchLog(pool: database.pool), { PostgresDispatchLog(pool: PostgresPool(url: database.url)) }, database.cleanUp)
        case "sqlite":
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("mytaxi-dispatch-log-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            return (try SQLiteDispatchLog(directory: path), { try SQLiteDispatchLog(directory: path) },
                    { try? FileManager.default.removeItem(atPath: path) })
        default:
            return (InMemoryDispatchLog(), nil, {})
        }
    }

    static func entry(_ sequence: Int64) -> DispatchLogEntry {
        DispatchLogEntry(sequence: sequence, payload: Data("command \(sequence)".utf8))
    }

    @Test(arguments: implementations)
    func entriesComeBackInOrderAfterASequenceNumber(implementation: String) async throws {
        let (log, _, cleanUp) = try Self.make(implementation)
        defer { cleanUp() }
        try log.write([.entry(Self.entry(1)), .entry(Self.entry(2))])
        try log.write([.entry(Self.entry(3))])
        #expect(try await log.entries(after: 0) == [Self.entry(1), Self.entry(2), Self.entry(3)])
        #expect(try await log.entries(after: 2) == [Self.entry(3)])
        #expect(try await log.entries(after: 3) == [])
    }

    @Test(arguments: implementations)
    func aLongStretchIsReadAPageAtATime(implementation: String) async throws {
        let (log, _, cleanUp) = try Self.make(implementation)
        defer { cleanUp() }
        try log.write((1...5).map { .entry(Self.entry($0)) })
        #expect(try await log.entries(after: 0, limit: 2) == [Self.entry(1), Self.entry(2)])
        #expect(try await log.entries(after: 2, limit: 2) == [Self.entry(3), Self.entry(4)])
        #expect(try await log.entries(after: 4, limit: 2) == [Self.entry(5)], "the last page is short")
    }

    @Test(arguments: implementations)
    func theNewestSnapshotReplacesTheOneBefore(implementation: String) async throws {
        let (log, _, cleanUp) = try Self.make(implementation)
        defer { cleanUp() }
        #expect(try await log.latestSnapshot() == nil)
        let first = DispatchLogSnapshot(sequence: 1, payload: Data("state 1".utf8))
        let second = DispatchLogSnapshot(sequence: 2, payload: Data("state 2".utf8))
        try log.write([.entry(Self.entry(1)), .snapshot(first)])
        try log.write([.entry(Self.entry(2)), .snapshot(second), .entry(Self.entry(3))])
        #expect(try await log.latestSnapshot() == second)
        #expect(try await log.entries(after: second.sequence) == [Self.entry(3)], "entries are kept; the snapshot says where to resume")
    }

    /// The statistics add up across writes and survive a reopening; a
    /// read keeps to its subjects' prefix and its hours.
    @Test(arguments: implementations)
    func countsAddUpPerSubjectHourAndMeasure(implementation: String) async throws {
        let (log, reopen, cleanUp) = try Self.make(implementation)
        defer { cleanUp() }
        let nine = Date(timeIntervalSince1970: 1_796_000_400)  // 09:00 UTC
        let ten = nine.addingTimeInterval(3_600)
        func count(_ subject: String, _ hour: Date, _ measure: String, _ count: Int64) -> HourlyCount {
            HourlyCount(subject: subject, hour: hour, measure: measure, count: count)
        }
        try log.write([.entry(Self.entry(1)), .counts([count("zone/Z1", nine.addingTimeInterval(61), "requests", 1), count("zone/Z1", nine, "requests", 1)])])
        try log.write([.counts([
            count("zone/Z1", nine.addingTimeInterval(3_599), "requests", 1), count("zone/Z1", ten, "requests", 4),
            count("zone/Z2", nine, "wait_s/120", 2), count("driver/ada", nine, "offered", 1), count("zone0", nine, "requests", 9),
        ])])
        let reader = try reopen?() ?? log
        #expect(try await reader.counts(ofSubjectsPrefixed: "zone/", hours: nine..<ten.addingTimeInterval(3_600)) == [
            count("zone/Z1", nine, "requests", 3), count("zone/Z1", ten, "requests", 4), count("zone/Z2", nine, "wait_s/120", 2),
        ])
        #expect(try await reader.counts(ofSubjectsPrefixed: "zone/Z1", hours: ten..<ten.addingTimeInterval(1)) == [count("zone/Z1", ten, "requests", 4)])
        #expect(try await reader.counts(ofSubjectsPrefixed: "driver/ada", hours: nine..<ten) == [count("driver/ada", nine, "offered", 1)])
        #expect(try await reader.counts(ofSubjectsPrefixed: "zone/", hours: ten.addingTimeInterval(3_600)..<ten.addingTimeInterval(7_200)).isEmpty)
    }

    /// A batch is one transaction: an entry out of order fails it whole.
    @Test(arguments: implementations)
    func aBatchWithAnEntryOutOfOrderWritesNothing(implementation: String) async throws {
        let (log, _, cleanUp) = try Self.make(implementation)
        defer { cleanUp() }
        try log.write([.entry(Self.entry(1))])
        #expect(throws: StorageError.self) {
            try log.write([.entry(Self.entry(2)), .snapshot(DispatchLogSnapshot(sequence: 2, payload: Data())), .entry(Self.entry(2))])
        }
        #expect(try await log.entries(after: 0) == [Self.entry(1)])
        #expect(try await log.latestSnapshot() == nil)
    }

    @Test(arguments: implementations)
    func whatWasWrittenOutlivesTheProcess(implementation: String) async throws {
        let (log, reopen, cleanUp) = try Self.make(implementation)
        defer { cleanUp() }
        guard let reopen else { return }
        let snapshot = DispatchLogSnapshot(sequence: 1, payload: Data("state".utf8))
        try log.write([.entry(Self.entry(1)), .snapshot(snapshot), .entry(Self.entry(2))])
        let reopened = try reopen()
        #expect(try await reopened.latestSnapshot() == snapshot)
        #expect(try await reopened.entries(after: 1) == [Self.entry(2)])
    }

    static func ride(_ number: Int, passenger: String, taxi: String?, endedAt seconds: Double) -> RideHistoryRecord {
        RideHistoryRecord(
            ride: "R\(number)", reservation: nil, passenger: passenger, taxi: taxi,
            pickup: Coordinate(longitude: -73.98, latitude: 40.75), destination: nil, pickupAt: nil,
            endedAt: Date(timeIntervalSince1970: 1_790_000_000 + seconds), outcome: .completed)
    }

    /// SPEC D8: a passenger's and a driver's rides, most recent first, within the period asked for.
    @Test(arguments: implementations)
    func historyComesBackMostRecentFirstWithinThePeriod(implementation: String) async throws {
        let (log, reopen, cleanUp) = try Self.make(implementation)
        defer { cleanUp() }
        let old = Self.ride(1, passenger: "p1", taxi: "A", endedAt: 0)
        let newer = Self.ride(2, passenger: "p1", taxi: "B", endedAt: 600)
        let other = Self.ride(3, passenger: "p2", taxi: "A", endedAt: 900)
        try log.write([.entry(Self.entry(1)), .history(old)])
        try log.write([.entry(Self.entry(2)), .history(newer), .history(other)])
        let since = Date(timeIntervalSince1970: 1_790_000_000)
        for store in [log] + (try reopen.map { [try $0()] } ?? []) {
            #expect(try await store.history(ofPassenger: "p1", since: since, limit: 10) == [newer, old])
            #expect(try await store.history(ofPassenger: "p1", since: since.addingTimeInterval(1), limit: 10) == [newer])
            #expect(try await store.history(ofTaxi: "A", since: since, limit: 10) == [other, old])
            #expect(try await store.history(ofTaxi: "A", since: since, limit: 1) == [other])
        }
    }

    /// The dispatchers' phone callers' rides, by the prefix of their ids,
    /// most recent first: no other passenger's, whatever sorts near them.
    @Test(arguments: implementations)
    func thePhoneCallersRidesComeBackByTheirPrefix(implementation: String) async throws {
        let (log, reopen, cleanUp) = try Self.make(implementation)
        defer { cleanUp() }
        let first = Self.ride(1, passenger: "phone:+12125550100", taxi: "A", endedAt: 0)
        let second = Self.ride(2, passenger: "phone:+12125550199", taxi: "B", endedAt: 600)
        let near = [Self.ride(3, passenger: "phone", taxi: "A", endedAt: 300), Self.ride(4, passenger: "phonebook", taxi: "A", endedAt: 300),
                    Self.ride(5, passenger: "phone;1", taxi: "A", endedAt: 300), Self.ride(6, passenger: "Phone:+1", taxi: "A", endedAt: 300)]
        try log.write([.entry(Self.entry(1)), .history(first)] + near.map { .history($0) })
        try log.write([.entry(Self.entry(2)), .history(second)])
        let since = Date(timeIntervalSince1970: 1_790_000_000)
        for store in [log] + (try reopen.map { [try $0()] } ?? []) {
            #expect(try await store.history(ofPassengersPrefixed: "phone:", since: since, limit: 10) == [second, first])
            #expect(try await store.history(ofPassengersPrefixed: "phone:", since: since.addingTimeInterval(1), limit: 10) == [second])
            #expect(try await store.history(ofPassengersPrefixed: "phone:", since: since, limit: 1) == [second])
        }
    }

    /// A dispatcher looks up a finished phone ride by the id the caller was told.
    @Test(arguments: implementations)
    func anEndedRideIsFoundByItsID(implementation: String) async throws {
        let (log, reopen, cleanUp) = try Self.make(implementation)
        defer { cleanUp() }
        let first = Self.ride(7, passenger: "phone:+12125550100", taxi: "A", endedAt: 0)
        var booked = Self.ride(8, passenger: "p1", taxi: nil, endedAt: 60)
        booked.outcome = .cancelled
        let unbooked = RideHistoryRecord(
            ride: nil, reservation: "V3", passenger: "p1", taxi: nil, pickup: booked.pickup, destination: nil,
            pickupAt: booked.endedAt, endedAt: booked.endedAt, outcome: .reservationCancelled)
        try log.write([.entry(Self.entry(1)), .history(first), .history(unbooked)])
        try log.write([.entry(Self.entry(2)), .history(booked)])
        for store in [log] + (try reopen.map { [try $0()] } ?? []) {
            #expect(try await store.endedRide("R7") == first)
            #expect(try await store.endedRide("R8") == booked)
            #expect(try await store.endedRide("R9") == nil, "a ride still open or never made has no record")
        }
    }

    static func notification(_ sequence: Int64, _ index: Int, for recipient: String) -> StoredNotification {
        StoredNotification(
            key: NotificationKey(sequence: sequence, index: index), recipient: recipient, payload: Data("told \(sequence).\(index)".utf8))
    }

    /// SPEC D7: a user's notifications are kept, oldest first, until handed
    /// over, and each is handed over once, also after a restart.
    @Test(arguments: implementations)
    func notificationsAreKeptUntilHandedOverOnce(implementation: String) async throws {
        let (log, reopen, cleanUp) = try Self.make(implementation)
        defer { cleanUp() }
        let first = Self.notification(1, 0, for: "passenger:pat")
        let forDriver = Self.notification(1, 1, for: "taxi:T1")
        let second = Self.notification(2, 0, for: "passenger:pat")
        let third = Self.notification(3, 0, for: "passenger:pat")
        try log.write([.entry(Self.entry(1)), .notification(first), .notification(forDriver)])
        try log.write([.entry(Self.entry(2)), .notification(second)])
        try log.write([.entry(Self.entry(3)), .notification(third)])
        #expect(try await log.undeliveredNotifications(for: "passenger:pat", limit: 10) == [first, second, third])
        #expect(try await log.undeliveredNotifications(for: "passenger:pat", limit: 2) == [first, second])
        try await log.markNotificationsDelivered([(recipient: "passenger:pat", through: second.key)])
        #expect(try await log.undeliveredNotifications(for: "passenger:pat", limit: 10) == [third])
        #expect(try await log.undeliveredNotifications(for: "taxi:T1", limit: 10) == [forDriver], "another user's are untouched")
        for store in try reopen.map({ [try $0()] }) ?? [] {
            #expect(try await store.undeliveredNotifications(for: "passenger:pat", limit: 10) == [third])
        }
    }

    /// A deleted passenger's rides stay, filed under the placeholder name,
    /// and its notifications are forgotten; nobody else's change.
    @Test(arguments: implementations)
    func aDeletedPassengersRidesAreFiledAnewAndItsNotificationsForgotten(implementation: String) async throws {
        let (log, reopen, cleanUp) = try Self.make(implementation)
        defer { cleanUp() }
        let first = Self.ride(1, passenger: "pat", taxi: "A", endedAt: 0)
        let second = Self.ride(2, passenger: "pat", taxi: "B", endedAt: 600)
        let other = Self.ride(3, passenger: "patrick", taxi: "A", endedAt: 300)
        let told = Self.notification(1, 0, for: "passenger:pat")
        let toldOther = Self.notification(1, 1, for: "passenger:patrick")
        try log.write([.entry(Self.entry(1)), .history(first), .history(other), .notification(told), .notification(toldOther)])
        try log.write([.entry(Self.entry(2)), .history(second)])
        #expect(try await log.anonymise(passenger: "pat", as: "deleted~7", recipient: "passenger:pat") == 2)
        let since = Date(timeIntervalSince1970: 1_790_000_000)
        for store in [log] + (try reopen.map { [try $0()] } ?? []) {
            #expect(try await store.history(ofPassenger: "pat", since: since, limit: 10).isEmpty)
            let filed = try await store.history(ofPassenger: "deleted~7", since: since, limit: 10)
            #expect(filed.map(\.ride) == ["R2", "R1"])
            #expect(filed.allSatisfy { $0.passenger == "deleted~7" })
            #expect(try await store.history(ofTaxi: "A", since: since, limit: 10).map(\.passenger) == ["patrick", "deleted~7"])
            #expect(try await store.undeliveredNotifications(for: "passenger:pat", limit: 10).isEmpty)
            #expect(try await store.undeliveredNotifications(for: "passenger:patrick", limit: 10) == [toldOther])
        }
    }

    /// A notification is written with its entry or not at all.
    @Test(arguments: implementations)
    func aNotificationOfAFailedBatchIsNotKept(implementation: String) async throws {
        let (log, _, cleanUp) = try Self.make(implementation)
        defer { cleanUp() }
        try log.write([.entry(Self.entry(1))])
        #expect(throws: StorageError.self) {
            try log.write([.entry(Self.entry(1)), .notification(Self.notification(1, 0, for: "taxi:T1"))])
        }
        #expect(try await log.undeliveredNotifications(for: "taxi:T1", limit: 10) == [])
    }
}
