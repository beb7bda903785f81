import FixRecords
import Fleet
import Foundation
import GRDB
import SQLiteStorage
import ServiceClock
import Synchronization
import TestSupport
import Testing
@testable import Storage

/// A background move that fails (here: a trigger refuses inserts into the
/// store, as an I/O error or a full disk would) loses nothing and is never
/// swallowed: it is reported, the archive says why while moves fail, and
/// the next good move catches up.
@Suite(.timeLimit(.minutes(20))) struct JournalMoverFailureTests {
    @Test func aFailingMoveIsReportedAndNothingIsLost() async throws {
        let directory = TemporaryDirectory()
        let failures = Mutex<[Int]>([])
        let clock = ManualClock(now: Date())
        let archive = try SQLiteFixArchive(
            directory: directory.path, moveInterval: .seconds(1), upkeepClock: clock,
            onMoveFailure: { _, inARow in failures.withLock { $0.append(inARow) } })
        let outside = try DatabaseQueue(path: directory.path + "/fixes.sqlite")
        try await outside.write { db in
            try db.execute(sql: "CREATE TRIGGER refuse BEFORE INSERT ON fixes BEGIN SELECT RAISE(FAIL, 'simulated I/O error'); END")
        }

        try archive.append([makeFix(taxi: "T1", second: 0), makeFix(taxi: "T1", second: 30)])
        try await waitUntil("three failed moves") {
            clock.advance(by: .seconds(1))
            return failures.withLock { $0.count } >= 3
        }
        #expect(failures.withLock { Array($0.prefix(3)) } == [1, 2, 3], "failures in a row are counted")
        #expect(archive.moveFailure?.contains("simulated I/O error") == true, "\(archive.moveFailure ?? "no failure")")
        // Still journaled, so still readable.
        let base = Date(timeIntervalSince1970: 1_790_000_000)
        #expect(try await archive.fixes(of: "T1", in: base...base.addingTimeInterval(60), limit: 10).count == 2)

        try await outside.write { db in try db.execute(sql: "DROP TRIGGER refuse") }
        try await waitUntil("the mover to recover") {
            clock.advance(by: .seconds(1))
            return archive.moveFailure == nil
        }
        #expect(try await archive.count() == 2)
    }
}
