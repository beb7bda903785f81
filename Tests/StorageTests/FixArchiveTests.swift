import FixRecords
import Fleet
import Foundation
import GeoKit
import GRDB
import Ingest
@testable import SQLiteStorage
import Synchronization
import Testing
import Zones
@testable import Storage

/// A fresh directory per test, removed afterwards.
struct TemporaryDirectory: ~Copyable {
    let path: String

    init() {
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("mytaxi-storage-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

func makeFix(taxi: String, second: Int, lon: Double = -73.98, zone: ZoneID? = "161") -> AcceptedFix {
    AcceptedFix(
        taxiId: TaxiID(taxi), deviceId: "imei-\(taxi)", wireProtocol: .line,
        time: Date(timeIntervalSince1970: 1_790_000_000 + Double(second)),
        coordinate: Coordinate(longitude: lon, latitude: 40.75), speedKmh: 20, heading: 90, zoneId: zone,
        receivedAt: Date(timeIntervalSince1970: 1_790_000_001 + Double(second)))
}

@Suite(.timeLimit(.minutes(20))) struct SQLiteFixArchiveTests {
    @Test func returnsATaxisWindowOldestFirst() async throws {
        let directory = TemporaryDirectory()
        let archive = try SQLiteFixArchive(directory: directory.path)
        try archive.append([makeFix(taxi: "T1", second: 60), makeFix(taxi: "T2", second: 10), makeFix(taxi: "T1", second: 0)])
        try archive.append([makeFix(taxi: "T1", second: 30, zone: nil)])
        let base = Date(timeIntervalSince1970: 1_790_000_000)
        let window = try await archive.fixes(of: "T1", in: base...base.addingTimeInterval(45), limit: 100)
        #expect(window.map(\.time) == [base, base.addingTimeInterval(30)])
        #expect(window[1].zoneId == nil)
        #expect(window[0] == makeFix(taxi: "T1", second: 0))
    }

    @Test func nonASCIIIdentifiersComeBackByteForByte() async throws {
        let directory = TemporaryDirectory()
        let archive = try SQLiteFixArchive(directory: directory.path)
        let fix = AcceptedFix(
            taxiId: "Такси-7", deviceId: "gerät-ü", wireProtocol: .osmand,
            time: Date(timeIntervalSince1970: 1_790_000_000.125), coordinate: Coordinate(longitude: 7.42, latitude: 43.73),
            speedKmh: 12.5, heading: 359, zoneId: "Monte-Carlo Ⅱ", receivedAt: Date(timeIntervalSince1970: 1_790_000_002))
        try archive.append([fix])
        let base = Date(timeIntervalSince1970: 1_790_000_000)
        #expect(try await archive.fixes(of: "Такси-7", in: base...base.addingTimeInterval(1), limit: 10) == [fix])
    }

    /// Segments wholly older than the cutoff go with their row; a segment
    /// across it keeps its newer fixes and a range that still finds them;
    /// the open segment keeps its row, and moves go on into it.
    @Test func retentionDropsOldSegmentsAndTrimsTheOneAcrossTheCutoff() async throws {
        let directory = TemporaryDirectory()
        let archive = try SQLiteFixArchive(directory: directory.path, moveInterval: .seconds(3600), segmentRows: 4)
        for minute in 0..<20 {
            try archive.append([makeFix(taxi: "T1", second: 60 * minute), makeFix(taxi: "T2", second: 60 * minute)])
            try archive.moveJournalToStore()
        }
        let segments = { try await archive.store.read { db in try Row.fetchAll(db, sql: "SELECT * FROM segments ORDER BY segment") } }
        #expect(try await segments().count == 10, "two moves of two fixes fill a segment of 4")
        let base = Date(timeIntervalSince1970: 1_790_000_000)
        #expect(try await archive.deleteFixes(takenBefore: base.addingTimeInterval(60 * 9)) == 18)
        let left = try await segments()
        #expect(left.count == 6, "segments 0 to 3 went whole")
        #expect(left.first.map { $0["min_time_ms"] as Int64 } == SQLiteFixArchive.milliseconds(base.addingTimeInterval(60 * 9)), "segment 4 starts at the cutoff now")
        #expect(try await archive.deleteFixes(takenBefore: base.addingTimeInterval(3600)) == 22, "everything, the open segment's fixes too")
        #expect(try await segments().map { $0["segment"] as Int64 } == [9], "the open segment keeps its row")
        try archive.append([makeFix(taxi: "T1", second: 7200)])
        try archive.moveJournalToStore()
        #expect(try await archive.fixes(of: "T1", in: base...base.addingTimeInterval(7200), limit: 10).map(\.time) == [base.addingTimeInterval(7200)])
        #expect(try await archive.latestFixPerTaxi().map(\.taxiId) == ["T1"])
    }

    @Test func movesAcrossBothJournalTablesLoseNothing() async throws {
        let directory = TemporaryDirectory()
        let archive = try SQLiteFixArchive(directory: directory.path, moveInterval: .seconds(3600))
        try archive.append([makeFix(taxi: "T1", second: 0), makeFix(taxi: "T2", second: 0)])
        #expect(try await archive.count() == 2)
        try archive.append([makeFix(taxi: "T1", second: 30)])
        #expect(try await archive.count() == 3)
        // Rows a crash left in the inactive table are moved too.
        let leftover = makeFix(taxi: "T3", second: 5)
        try await archive.journal.write { db in try JournalInsert.append([leftover], to: archive.inactiveJournal, in: db) }
        try archive.append([makeFix(taxi: "T1", second: 60)])
        let base = Date(timeIntervalSince1970: 1_790_000_000)
        #expect(try await archive.fixes(of: "T3", in: base...base.addingTimeInterval(60), limit: 10) == [leftover])
        #expect(try await archive.fixes(of: "T1", in: base...base.addingTimeInterval(60), limit: 10).count == 3)
        #expect(try await archive.count() == 5)
        #expect(try await archive.fixes(of: "T1", in: base...base.addingTimeInterval(60), limit: 10).count == 3)
    }

    @Test func aResentFixIsStoredOnce() async throws {
        let directory = TemporaryDirectory()
        let archive = try SQLiteFixArchive(directory: directory.path)
        try archive.append([makeFix(taxi: "T1", second: 0)])
        try archive.append([makeFix(taxi: "T1", second: 0), makeFix(taxi: "T1", second: 30)])
        #expect(try await archive.count() == 2)
    }

    @Test func latestFixPerTaxiSurvivesReopening() async throws {
        let directory = TemporaryDirectory()
        let path = directory.path
        do {
            let archive = try SQLiteFixArchive(directory: path)
            try archive.append([makeFix(taxi: "T1", second: 90, lon: -73.9), makeFix(taxi: "T1", second: 30), makeFix(taxi: "T2", second: 5)])
        }
        let reopened = try SQLiteFixArchive(directory: path)
        let latest = try await reopened.latestFixPerTaxi()
        #expect(latest.map(\.taxiId) == ["T1", "T2"])
        #expect(latest[0] == makeFix(taxi: "T1", second: 90, lon: -73.9))
    }

    @Test func anUnwritablePathSaysWhatToCheck() {
        #expect {
            try SQLiteFixArchive(directory: "/nonexistent-dir")
        } throws: { error in
            guard case StorageError.unavailable(let location, _) = error else { return false }
            return location.contains("/nonexistent-dir") && "\(error)".contains("writable")
        }
    }

    /// A journal that refuses the insert (here a trigger; a full disk or an
    /// I/O error alike) is a write failure carrying SQLite's message, and
    /// nothing of the batch is readable.
    @Test func aFailedAppendIsAWriteFailureAndStoresNothing() async throws {
        let directory = TemporaryDirectory()
        let archive = try SQLiteFixArchive(directory: directory.path, moveInterval: .seconds(3600))
        try await archive.journal.write { db in
            for table in SQLiteFixArchive.journalTables {
                try db.execute(sql: "CREATE TRIGGER refuse_\(table) BEFORE INSERT ON \(table) BEGIN SELECT RAISE(FAIL, 'simulated I/O error'); END")
            }
        }
        #expect {
            try archive.append([makeFix(taxi: "T1", second: 0), makeFix(taxi: "T1", second: 30)])
        } throws: { error in
            guard case StorageError.writeFailed(let reason) = error else { return false }
            return reason.contains("simulated I/O error")
        }
        #expect(try await archive.fixes(of: "T1", in: Date.distantPast...Date.distantFuture, limit: 10).isEmpty)
    }
}

@Suite(.timeLimit(.minutes(20))) struct GroupCommitterTests {
    @Test func everySubmissionCompletesAfterItsFixesAreStored() async throws {
        let directory = TemporaryDirectory()
        let archive = try SQLiteFixArchive(directory: directory.path)
        let committed = Mutex(0)
        let committer = GroupCommitter(archive: archive) { fixes, _ in committed.withLock { $0 += fixes.count } }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for taxi in 0..<50 {
                group.addTask {
                    for second in 0..<20 {
                        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                            committer.submit([makeFix(taxi: "T\(taxi)", second: second)]) { continuation.resume(with: $0) }
                        }
                        #expect(try await archive.fixes(of: TaxiID("T\(taxi)"), in: Date.distantPast...Date.distantFuture, limit: 100).count == second + 1)
                    }
                }
            }
            try await group.waitForAll()
        }
        committer.shutdown()
        #expect(try await archive.count() == 1000)
        #expect(committed.withLock { $0 } == 1000)
    }

    @Test func afterShutdownSubmissionsFailWithAReason() async {
        let committer = GroupCommitter(archive: InMemoryFixArchive())
        committer.shutdown()
        await #expect {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                committer.submit([makeFix(taxi: "T1", second: 0)]) { continuation.resume(with: $0) }
            }
        } throws: { "\($0)".contains("shutting down") }
    }
}

@Suite(.timeLimit(.minutes(20))) struct FixStoreSegmentTests {
    let base = Date(timeIntervalSince1970: 1_790_000_000)

    private func segmentCount(_ archive: SQLiteFixArchive) throws -> Int {
        try archive.store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM segments") ?? 0 }
    }

    @Test func aWindowSpanningSegmentsComesBackOldestFirstWithinTheLimit() async throws {
        let directory = TemporaryDirectory()
        let archive = try SQLiteFixArchive(directory: directory.path, moveInterval: .seconds(3600), segmentRows: 2)
        for second in stride(from: 0, to: 300, by: 30) {
            try archive.append([makeFix(taxi: "T1", second: second), makeFix(taxi: "T2", second: second + 1)])
            _ = try await archive.count()
        }
        #expect(try segmentCount(archive) == 10)
        let window = try await archive.fixes(of: "T1", in: base.addingTimeInterval(60)...base.addingTimeInterval(200), limit: 4)
        #expect(window.map(\.time) == [60, 90, 120, 150].map { base.addingTimeInterval($0) })
        #expect(window.allSatisfy { $0.taxiId == "T1" })
    }

    @Test func everyMoveIsReportedWithTheFixesItStored() async throws {
        let directory = TemporaryDirectory()
        let reports = Mutex<[JournalMoveReport]>([])
        let archive = try SQLiteFixArchive(directory: directory.path, moveInterval: .seconds(3600)) { move in
            reports.withLock { $0.append(move) }
        }
        try archive.append([makeFix(taxi: "T1", second: 0), makeFix(taxi: "T2", second: 0)])
        try archive.moveJournalToStore()
        try archive.append([makeFix(taxi: "T1", second: 0), makeFix(taxi: "T1", second: 30)])
        try archive.moveJournalToStore()
        try archive.moveJournalToStore()
        #expect(reports.withLock { $0.map(\.storedFixes) } == [2, 1])
    }

    @Test func aFixResentIntoALaterSegmentIsReturnedOnce() async throws {
        let directory = TemporaryDirectory()
        let archive = try SQLiteFixArchive(directory: directory.path, moveInterval: .seconds(3600), segmentRows: 2)
        try archive.append([makeFix(taxi: "T1", second: 0), makeFix(taxi: "T1", second: 30)])
        #expect(try await archive.count() == 2)
        try archive.append([makeFix(taxi: "T1", second: 0), makeFix(taxi: "T1", second: 60)])
        #expect(try await archive.count() == 3)
        #expect(try segmentCount(archive) == 2)
        let window = try await archive.fixes(of: "T1", in: base...base.addingTimeInterval(60), limit: 10)
        #expect(window.map(\.time) == [0, 30, 60].map { base.addingTimeInterval($0) })
    }

    /// With one row per segment, the newest fix is in a closed segment when
    /// the late one arrives; with the default, both are in the open one.
    @Test(arguments: [1, FixStore.defaultSegmentRows])
    func theLatestFixStaysTheNewestWhenAnOlderOneArrivesLate(segmentRows: Int) async throws {
        let directory = TemporaryDirectory()
        do {
            let archive = try SQLiteFixArchive(directory: directory.path, moveInterval: .seconds(3600), segmentRows: segmentRows)
            try archive.append([makeFix(taxi: "T1", second: 90, lon: -73.9)])
            _ = try await archive.count()
            try archive.append([makeFix(taxi: "T1", second: 30), makeFix(taxi: "T2", second: 5)])
            _ = try await archive.count()
        }
        let latest = try await SQLiteFixArchive(directory: directory.path).latestFixPerTaxi()
        #expect(latest == [makeFix(taxi: "T1", second: 90, lon: -73.9), makeFix(taxi: "T2", second: 5)])
    }

    @Test func aStoreWrittenBeforeSegmentsIsConvertedWithNothingLost() async throws {
        let directory = TemporaryDirectory()
        let fixes = [makeFix(taxi: "T1", second: 0), makeFix(taxi: "T1", second: 30, zone: nil), makeFix(taxi: "T2", second: 10)]
        do {
            let old = try DatabaseQueue(path: directory.path + "/fixes.sqlite")
            try await old.write { db in
                try db.execute(
                    sql: """
                        CREATE TABLE fixes (
                            taxi_id TEXT NOT NULL, time_ms INTEGER NOT NULL, device_id TEXT NOT NULL, protocol TEXT NOT NULL,
                            lon REAL NOT NULL, lat REAL NOT NULL, speed_kmh REAL NOT NULL, heading REAL NOT NULL,
                            zone_id TEXT, received_ms INTEGER NOT NULL,
                            PRIMARY KEY (taxi_id, time_ms, device_id)
                        ) WITHOUT ROWID
                        """)
                for fix in fixes {
                    try db.execute(
                        sql: "INSERT INTO fixes VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        arguments: [fix.taxiId.text, SQLiteFixArchive.milliseconds(fix.time), fix.deviceId,
                                    fix.wireProtocol.rawValue, fix.coordinate.longitude, fix.coordinate.latitude,
                                    fix.speedKmh, fix.heading, fix.zoneId?.text, SQLiteFixArchive.milliseconds(fix.receivedAt)])
                }
            }
        }
        let archive = try SQLiteFixArchive(directory: directory.path)
        #expect(try await archive.fixes(of: "T1", in: base...base.addingTimeInterval(60), limit: 10) == Array(fixes[0...1]))
        #expect(try await archive.latestFixPerTaxi() == [fixes[1], fixes[2]])
        try archive.append([makeFix(taxi: "T1", second: 60)])
        #expect(try await archive.count() == 4)
    }
}
