import FixRecords
import Foundation
import GeoKit
import ServiceClock
import Storage
import Synchronization
import TestSupport
import Testing
@testable import PostgresStorage

/// The PostgreSQL archive's journal: a commit lands in the unindexed
/// `fix_journal`, the mover takes it into the indexed `fixes`, and readers
/// see every fix exactly once wherever it is. Apart from the parallel run
/// (`realTimeWaits`): the background move runs on an upkeep thread at nice
/// 10, and it missed a minute's deadline once in the parallel run with
/// other processes keeping both cores busy.
@Suite(.timeLimit(.minutes(20)), .tags(.realTimeWaits)) struct PostgresFixJournalTests {
    static let base = Date(timeIntervalSince1970: 1_790_000_000)

    /// How many rows `table` holds (a name from the tests, never input).
    private func rows(in table: String, of pool: PostgresPool) throws -> Int64 {
        try pool.withConnection { try $0.query("SELECT count(*) AS n FROM \(table)").integer(0, "n") }
    }

    @Test(.enabled(if: PostgresTestDatabase.available, PostgresTestDatabase.skipReason))
    func aCommittedFixIsReadFromTheJournalUntilItMovesAndOnceAfter() async throws {
        let database = try PostgresTestDatabase.make()
        defer { database.cleanUp() }
        let archive = PostgresFixArchive(pool: database.pool, moveInterval: .seconds(3600))
        let window = Self.base...Self.base.addingTimeInterval(60)
        try archive.append([makeFix(taxi: "T1", second: 0), makeFix(taxi: "T1", second: 30)])
        #expect(try rows(in: "fix_journal", of: database.pool) == 2)
        #expect(try rows(in: "fixes", of: database.pool) == 0)
        #expect(try await archive.fixes(of: "T1", in: window, limit: 10).map(\.time) == [Self.base, Self.base.addingTimeInterval(30)])

        try archive.moveJournalToStore()
        #expect(try rows(in: "fix_journal", of: database.pool) == 0)
        #expect(try rows(in: "fixes", of: database.pool) == 2)

        // A terminal resends the first fix after a lost ACK: one fix to every reader, before and after the move.
        try archive.append([makeFix(taxi: "T1", second: 0, lon: -73.5), makeFix(taxi: "T1", second: 60)])
        for moved in [false, true] {
            if moved { try archive.moveJournalToStore() }
            let fixes = try await archive.fixes(of: "T1", in: window, limit: 10)
            #expect(fixes.map(\.time) == [0, 30, 60].map { Self.base.addingTimeInterval($0) }, "moved: \(moved)")
            #expect(fixes.first?.coordinate.longitude == -73.98, "the fix stored first is kept (moved: \(moved))")
            #expect(try await archive.count() == 3, "moved: \(moved)")
            #expect(try await archive.track(of: "T1", in: window, limit: 10).positions.count == 3, "moved: \(moved)")
        }
        #expect(try rows(in: "fixes", of: database.pool) == 3)
    }

    @Test(.enabled(if: PostgresTestDatabase.available, PostgresTestDatabase.skipReason))
    func aFixStagedTwiceInTheJournalMovesOnceAsFirstReceived() async throws {
        let database = try PostgresTestDatabase.make()
        defer { database.cleanUp() }
        let archive = PostgresFixArchive(pool: database.pool, moveInterval: .seconds(3600))
        var resent = makeFix(taxi: "T1", second: 0, lon: -73.5)
        resent.receivedAt = resent.receivedAt.addingTimeInterval(40)
        try archive.append([resent])
        try archive.append([makeFix(taxi: "T1", second: 0)])
        let window = Self.base...Self.base.addingTimeInterval(60)
        #expect(try await archive.fixes(of: "T1", in: window, limit: 10).map(\.coordinate.longitude) == [-73.98])
        try archive.moveJournalToStore()
        #expect(try await archive.fixes(of: "T1", in: window, limit: 10).map(\.coordinate.longitude) == [-73.98])
        #expect(try rows(in: "fixes", of: database.pool) == 1)
    }

    @Test(.enabled(if: PostgresTestDatabase.available, PostgresTestDatabase.skipReason))
    func theNewestFixOfATaxiComesFromTheJournalOnlyWhenNewer() async throws {
        let database = try PostgresTestDatabase.make()
        defer { database.cleanUp() }
        let archive = PostgresFixArchive(pool: database.pool, moveInterval: .seconds(3600))
        try archive.append([makeFix(taxi: "T1", second: 60), makeFix(taxi: "T2", second: 60)])
        try archive.moveJournalToStore()
        try archive.append([makeFix(taxi: "T1", second: 90, lon: -73.9), makeFix(taxi: "T2", second: 30, lon: -73.9)])
        for moved in [false, true] {
            if moved { try archive.moveJournalToStore() }
            let latest = try await archive.latestFixPerTaxi()
            #expect(latest.map(\.taxiId) == ["T1", "T2"], "moved: \(moved)")
            #expect(latest.map(\.time) == [90, 60].map { Self.base.addingTimeInterval($0) }, "moved: \(moved)")
        }
    }

    /// A backlog moves in bounded transactions, and every move is reported
    /// with the fixes it stored.
    @Test(.enabled(if: PostgresTestDatabase.available, PostgresTestDatabase.skipReason))
    func aBacklogMovesInBoundedSteps() throws {
        let database = try PostgresTestDatabase.make()
        defer { database.cleanUp() }
        let reports = Mutex<[Int]>([])
        let archive = PostgresFixArchive(
            pool: database.pool, moveInterval: .seconds(3600), rowsPerMove: 2,
            onMove: { move in reports.withLock { $0.append(move.storedFixes) } })
        try archive.append((0..<5).map { makeFix(taxi: "T1", second: $0 * 30) })
        try archive.moveJournalToStore()
        #expect(try rows(in: "fix_journal", of: database.pool) == 3)
        while try rows(in: "fix_journal", of: database.pool) > 0 { try archive.moveJournalToStore() }
        try archive.moveJournalToStore()
        #expect(reports.withLock { $0 } == [2, 2, 1], "an empty journal reports no move")
        #expect(try rows(in: "fixes", of: database.pool) == 5)
    }

    /// With nobody asking, the journal empties within a few move intervals.
    @Test(.enabled(if: PostgresTestDatabase.available, PostgresTestDatabase.skipReason))
    func theMoverEmptiesTheJournalInTheBackground() async throws {
        let database = try PostgresTestDatabase.make()
        defer { database.cleanUp() }
        let clock = ManualClock(now: Date())
        let archive = PostgresFixArchive(pool: database.pool, moveInterval: .milliseconds(200), upkeepClock: clock)
        try archive.append((0..<100).map { makeFix(taxi: "T\($0 % 7)", second: $0) })
        #expect(try rows(in: "fix_journal", of: database.pool) == 100, "nothing moves before the interval has passed")
        try await waitUntil("the journal emptied as the clock moves") {
            clock.advance(by: .milliseconds(200))
            let journaled = try rows(in: "fix_journal", of: database.pool)
            return (journaled: journaled, moveFailure: archive.moveFailure)
        } satisfies: { $0.journaled == 0 }
        #expect(try rows(in: "fixes", of: database.pool) == 100)
        #expect(try rows(in: "latest_fixes", of: database.pool) == 7)
        #expect(archive.moveFailure == nil)
    }

    /// Retention reaches fixes still in the journal.
    @Test(.enabled(if: PostgresTestDatabase.available, PostgresTestDatabase.skipReason))
    func retentionDeletesJournaledFixesToo() async throws {
        let database = try PostgresTestDatabase.make()
        defer { database.cleanUp() }
        let archive = PostgresFixArchive(pool: database.pool, moveInterval: .seconds(3600))
        try archive.append([makeFix(taxi: "T1", second: 0), makeFix(taxi: "T1", second: 60)])
        try archive.moveJournalToStore()
        try archive.append([makeFix(taxi: "T1", second: 30), makeFix(taxi: "T1", second: 90)])
        #expect(try await archive.deleteFixes(takenBefore: Self.base.addingTimeInterval(45)) == 2)
        #expect(try await archive.fixes(of: "T1", in: Self.base...Self.base.addingTimeInterval(90), limit: 10).map(\.time)
            == [60, 90].map { Self.base.addingTimeInterval($0) })
    }
}
