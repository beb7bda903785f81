import Foundation
import GRDB
import SQLiteStorage
import ServiceClock
import Storage
import TestSupport
import Testing

/// The SQLite dispatch log writes users' notifications unindexed, with
/// their entry, and files them by recipient off the commit path: a reader
/// sees each notification once and in order, filed or not, and a mark
/// reaches the ones not filed yet.
@Suite(.timeLimit(.minutes(20))) struct SQLiteNotificationFilingTests {
    /// A log in a fresh directory whose upkeep runs on `clock` (files only
    /// when told, or when the test moves the clock), and the directory.
    static func makeLog(clock: ManualClock = ManualClock(now: Date())) throws -> (SQLiteDispatchLog, String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mytaxi-filing-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return (try SQLiteDispatchLog(directory: directory, filingInterval: .milliseconds(250), upkeepClock: clock), directory)
    }

    static func notification(_ sequence: Int64, _ index: Int, for recipient: String) -> StoredNotification {
        StoredNotification(
            key: NotificationKey(sequence: sequence, index: index), recipient: recipient, payload: Data("\(recipient) \(sequence).\(index)".utf8))
    }

    /// Writes entry `sequence` with a notification for the passenger and one for the driver.
    static func write(_ sequence: Int64, to log: SQLiteDispatchLog) throws -> (passenger: StoredNotification, driver: StoredNotification) {
        let passenger = notification(sequence, 0, for: "passenger:pat")
        let driver = notification(sequence, 1, for: "taxi:T\(sequence % 3)")
        try log.write([.entry(DispatchLogEntry(sequence: sequence, payload: Data("command \(sequence)".utf8))),
                       .notification(passenger), .notification(driver)])
        return (passenger, driver)
    }

    /// How many notifications wait in the unindexed table of the log in `directory`.
    static func waiting(in directory: String) throws -> Int {
        try DatabaseQueue(path: directory + "/dispatch.sqlite").read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM notification_recent") ?? 0
        }
    }

    @Test func aNotificationIsReadOnceAndInOrderWhetherFiledOrNot() async throws {
        let (log, directory) = try Self.makeLog()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try Self.write(1, to: log)
        let second = try Self.write(2, to: log)
        try log.fileNotifications()
        #expect(try Self.waiting(in: directory) == 0)
        let third = try Self.write(3, to: log)
        let fourth = try Self.write(4, to: log)
        #expect(try Self.waiting(in: directory) == 4)
        #expect(try await log.undeliveredNotifications(for: "passenger:pat", limit: 10)
            == [first.passenger, second.passenger, third.passenger, fourth.passenger])
        #expect(try await log.undeliveredNotifications(for: "passenger:pat", limit: 3)
            == [first.passenger, second.passenger, third.passenger], "the limit counts across both tables")
        #expect(try await log.undeliveredNotifications(for: "taxi:T1", limit: 10) == [first.driver, fourth.driver])
        let imported = try SQLiteStoreReader(directory: directory).notifications()
        #expect(imported.map(\.notification.key) == (1...4).flatMap { [NotificationKey(sequence: $0, index: 0), NotificationKey(sequence: $0, index: 1)] })
    }

    @Test func filingWithNothingWaitingDoesNotWaitForTheWriteLock() throws {
        let (log, directory) = try Self.makeLog()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = try Self.write(1, to: log)
        try log.fileNotifications()
        try DatabaseQueue(path: directory + "/dispatch.sqlite").inTransaction(.immediate) { _ in
            let start = ContinuousClock.now
            try log.fileNotifications()
            #expect(ContinuousClock.now - start < .seconds(2), "the log's writers wait up to 10 s for the lock")
            return .rollback
        }
    }

    @Test func aMarkReachesNotificationsNotFiledYetAndOutlivesTheProcess() async throws {
        let (log, directory) = try Self.makeLog()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = try Self.write(1, to: log)
        try log.fileNotifications()
        let second = try Self.write(2, to: log)
        let third = try Self.write(3, to: log)
        try await log.markNotificationsDelivered([(recipient: "passenger:pat", through: second.passenger.key)])
        #expect(try await log.undeliveredNotifications(for: "passenger:pat", limit: 10) == [third.passenger])
        #expect(try await log.undeliveredNotifications(for: "taxi:T2", limit: 10) == [second.driver], "another user's are untouched")
        let reopened = try SQLiteDispatchLog(directory: directory)
        #expect(try await reopened.undeliveredNotifications(for: "passenger:pat", limit: 10) == [third.passenger])
    }

    @Test func theLogFilesByItselfInSmallTransactions() async throws {
        let clock = ManualClock(now: Date())
        let (log, directory) = try Self.makeLog(clock: clock)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for sequence in Int64(1)...200 { _ = try Self.write(sequence, to: log) }
        #expect(try Self.waiting(in: directory) == 400, "nothing is filed before the filing interval has passed")
        try await waitUntil("every notification filed as the clock moves") {
            clock.advance(by: .milliseconds(250))
            return try Self.waiting(in: directory)
        } satisfies: { $0 == 0 }
        let passengers = try await log.undeliveredNotifications(for: "passenger:pat", limit: 500)
        #expect(passengers.map(\.key.sequence) == Array(1...200))
    }
}
