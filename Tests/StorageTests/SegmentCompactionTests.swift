import FixRecords
import Foundation
import GRDB
@testable import SQLiteStorage
import Synchronization
import Testing
@testable import Storage

/// Compaction of the SQLite archive's closed segments into hour segments:
/// what a reader sees before, during and after it.
@Suite(.timeLimit(.minutes(20))) struct SegmentCompactionTests {
    let base = Date(timeIntervalSince1970: 1_790_000_000)
    /// Every segment closed so far qualifies.
    let everything = Date.distantFuture

    /// Fixes of two taxis every 5 minutes for `hours` hours, appended and
    /// moved into segments of 4 rows, with the fix at 30 minutes resent
    /// after a lost ACK once later fixes were moved (so it is in two
    /// segments); returns the archive and every distinct fix appended.
    private func archiveOverHours(_ hours: Int, in directory: String) async throws -> (SQLiteFixArchive, [AcceptedFix]) {
        let archive = try SQLiteFixArchive(directory: directory, moveInterval: .seconds(3600), segmentRows: 4)
        var fixes: [AcceptedFix] = []
        for second in stride(from: 0, to: hours * 3600, by: 300) {
            let batch = [makeFix(taxi: "T1", second: second), makeFix(taxi: "T2", second: second + 7)]
            try archive.append(batch)
            try archive.moveJournalToStore()
            fixes += batch
            if second == 3600 { try archive.append([makeFix(taxi: "T1", second: 1800)]) }
        }
        return (archive, fixes)
    }

    private func compactAll(_ archive: SQLiteFixArchive, maximumRows: Int = 1_000) async throws -> [SQLiteFixArchive.CompactionReport] {
        var reports: [SQLiteFixArchive.CompactionReport] = []
        while let report = try await archive.compactOldestSegments(closedBefore: everything, maximumRows: maximumRows) {
            reports.append(report)
        }
        return reports
    }

    private func segments(_ archive: SQLiteFixArchive) throws -> [(segment: Int64, rows: Int, hours: ClosedRange<Int64>)] {
        try archive.store.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM segments ORDER BY segment").map { row in
                let (oldest, newest): (Int64, Int64) = (row["min_time_ms"], row["max_time_ms"])
                return (row["segment"], row["rows"], (oldest / SegmentCompaction.hourMilliseconds)...(newest / SegmentCompaction.hourMilliseconds))
            }
        }
    }

    /// The end of the UTC hour the fixes of `archiveOverHours` start in.
    private var endOfFirstHour: Date {
        Date(timeIntervalSince1970: (base.timeIntervalSince1970 / 3600).rounded(.down) * 3600 + 3600)
    }

    @Test func everyFixIsReadExactlyOnceAfterCompactionInWindowsAcrossHourBoundaries() async throws {
        let directory = TemporaryDirectory()
        let (archive, fixes) = try await archiveOverHours(3, in: directory.path)
        let windows = [
            base...base.addingTimeInterval(3 * 3600),
            base.addingTimeInterval(1500)...base.addingTimeInterval(2100),
            base.addingTimeInterval(3300)...base.addingTimeInterval(7500),
            base.addingTimeInterval(3600)...base.addingTimeInterval(3600),
        ]
        var before: [[AcceptedFix]] = []
        for window in windows { before.append(try await archive.fixes(of: "T1", in: window, limit: 10_000)) }
        let segmentsBefore = try segments(archive).count

        let reports = try await compactAll(archive)

        #expect(!reports.isEmpty)
        #expect(reports.reduce(0) { $0 + $1.fixesRead } == reports.reduce(0) { $0 + $1.fixesStored } + 1,
                "the fix resent into a second segment is stored once")
        for (window, expected) in zip(windows, before) {
            #expect(try await archive.fixes(of: "T1", in: window, limit: 10_000) == expected)
        }
        #expect(before[0] == fixes.filter { $0.taxiId == "T1" })
        #expect(try await archive.count() == fixes.count)
        let after = try segments(archive)
        let compacted = after.filter { $0.segment < 0 }
        #expect(compacted.count >= 3)
        #expect(compacted.allSatisfy { $0.hours.count == 1 && $0.segment == SegmentCompaction.segment(ofHour: $0.hours.lowerBound) },
                "one segment per hour of fix time")
        #expect(after.count < segmentsBefore)
        let reopened = try SQLiteFixArchive(directory: directory.path, moveInterval: .seconds(3600), segmentRows: 4)
        #expect(try await reopened.fixes(of: "T2", in: windows[0], limit: 10_000) == fixes.filter { $0.taxiId == "T2" })
    }

    @Test func theOpenSegmentAndTheNewestFixesAreLeftAlone() async throws {
        let directory = TemporaryDirectory()
        let (archive, fixes) = try await archiveOverHours(2, in: directory.path)
        let open = try #require(try segments(archive).last)
        let latestBefore = try await archive.latestFixPerTaxi()

        _ = try await compactAll(archive)

        let after = try segments(archive)
        #expect(after.last?.segment == open.segment)
        #expect(after.last?.rows == open.rows)
        #expect(after.filter { $0.segment >= 0 }.count == 1, "only the open segment is left uncompacted")
        #expect(try await archive.latestFixPerTaxi() == latestBefore)
        try archive.append([makeFix(taxi: "T1", second: 7200)])
        #expect(try await archive.count() == fixes.count + 1, "the mover goes on appending to the open segment")
    }

    @Test func segmentsWithAFixNewerThanTheHorizonWait() async throws {
        let directory = TemporaryDirectory()
        let (archive, _) = try await archiveOverHours(2, in: directory.path)
        let horizon = endOfFirstHour
        while try await archive.compactOldestSegments(closedBefore: horizon) != nil {}
        let store = try segments(archive)
        #expect(store.filter { $0.segment < 0 }.count == 1, "only the first hour is compacted")
        let waiting = try await archive.store.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM segments WHERE segment >= 0 AND max_time_ms < ?",
                             arguments: [SQLiteFixArchive.milliseconds(horizon)])
        }
        #expect(waiting == 0)
    }

    @Test func aStepReadsAtMostItsRowsAndOneHourAtATime() async throws {
        let directory = TemporaryDirectory()
        let (archive, fixes) = try await archiveOverHours(3, in: directory.path)
        let reports = try await compactAll(archive, maximumRows: 8)
        #expect(reports.allSatisfy { $0.fixesRead <= 8 && $0.mergedSegments <= 2 })
        #expect(reports.allSatisfy { $0.hours <= 2 }, "a step takes the segments of one hour, and one may straddle the next")
        #expect(try await archive.count() == fixes.count)
    }

    @Test func retentionAfterCompactionKeepsExactlyTheNewerFixes() async throws {
        let directory = TemporaryDirectory()
        let (archive, fixes) = try await archiveOverHours(3, in: directory.path)
        _ = try await compactAll(archive)
        let cutoff = base.addingTimeInterval(5400)

        let deleted = try await archive.deleteFixes(takenBefore: cutoff)

        let kept = fixes.filter { $0.time >= cutoff }
        #expect(deleted == fixes.count - kept.count)
        #expect(try await archive.count() == kept.count)
        let everyWindow = base...base.addingTimeInterval(3 * 3600)
        #expect(try await archive.fixes(of: "T1", in: everyWindow, limit: 10_000) == kept.filter { $0.taxiId == "T1" })
        let firstHour = SegmentCompaction.segment(ofHour: SQLiteFixArchive.milliseconds(base) / SegmentCompaction.hourMilliseconds)
        #expect(!(try segments(archive).contains { $0.segment == firstHour }), "the wholly older hour segment is gone")
    }

    /// A compacted hour holds 24 fixes here, so a step of 5 rows deletes it
    /// in several transactions, and the hour the cutoff falls in keeps
    /// each taxi's newer fixes between the older ones of the next taxi.
    @Test func retentionInStepsSmallerThanASegmentDeletesEveryOlderFixAndNoNewerOne() async throws {
        let directory = TemporaryDirectory()
        let (archive, fixes) = try await archiveOverHours(3, in: directory.path)
        _ = try await compactAll(archive)
        let cutoff = base.addingTimeInterval(5400)
        let straddled = SegmentCompaction.segment(ofHour: SQLiteFixArchive.milliseconds(cutoff) / SegmentCompaction.hourMilliseconds)
        let straddledRows = try #require(try segments(archive).first { $0.segment == straddled }?.rows)
        #expect(straddledRows > 5, "the hour of the cutoff is larger than one step")

        let deleted = try await archive.deleteFixes(takenBefore: cutoff, rowsPerStep: 5)

        let kept = fixes.filter { $0.time >= cutoff }
        #expect(deleted == fixes.count - kept.count)
        let everyWindow = base...base.addingTimeInterval(3 * 3600)
        for taxi: TaxiID in ["T1", "T2"] {
            #expect(try await archive.fixes(of: taxi, in: everyWindow, limit: 10_000) == kept.filter { $0.taxiId == taxi })
        }
        #expect(try await archive.count() == kept.count)
        let left = try segments(archive)
        #expect(left.reduce(0) { $0 + $1.rows } == kept.count, "every segment's row count follows its deletes")
        let oldestLeft = try await archive.store.read { db in
            try Int64.fetchOne(db, sql: "SELECT min_time_ms FROM segments WHERE segment = ?", arguments: [straddled])
        }
        #expect(oldestLeft == kept.map { SQLiteFixArchive.milliseconds($0.time) }.min(), "the straddled hour starts at its oldest fix left")
        #expect(left.allSatisfy { $0.hours.lowerBound >= SQLiteFixArchive.milliseconds(cutoff) / SegmentCompaction.hourMilliseconds },
                "the wholly older hours are gone")
    }

    /// Appends, moves and compaction run together while readers poll: every
    /// fix acknowledged before a read starts is in it exactly once.
    @Test func readersDuringCompactionNeverMissAFixNorSeeOneTwice() async throws {
        let directory = TemporaryDirectory()
        let archive = try SQLiteFixArchive(directory: directory.path, moveInterval: .milliseconds(5), segmentRows: 20)
        let run = ConcurrentRun()
        let total = 1_500
        let window = base...base.addingTimeInterval(Double(total) * 60)
        let base = base
        let everything = everything

        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for index in 0..<total {
                    var batch = [makeFix(taxi: "T1", second: index * 60), makeFix(taxi: "T2", second: index * 60)]
                    if index % 7 == 0, index > 30 { batch.append(makeFix(taxi: "T1", second: (index - 30) * 60)) }
                    try archive.append(batch)
                    run.acknowledged.store(index + 1, ordering: .sequentiallyConsistent)
                    if index % 50 == 0 { await Task.yield() }
                }
                run.done.store(true, ordering: .sequentiallyConsistent)
            }
            group.addTask {
                while !run.done.load(ordering: .sequentiallyConsistent) {
                    if try await archive.compactOldestSegments(closedBefore: everything, maximumRows: 60) != nil {
                        run.steps.add(1, ordering: .sequentiallyConsistent)
                    }
                    await Task.yield()
                }
            }
            for _ in 0..<2 {
                group.addTask {
                    var reads = 0
                    while !run.done.load(ordering: .sequentiallyConsistent) || reads == 0 {
                        let known = run.acknowledged.load(ordering: .sequentiallyConsistent)
                        let seen = try await archive.fixes(of: "T1", in: window, limit: 100_000).map(\.time)
                        let expected = (0..<known).map { base.addingTimeInterval(Double($0 * 60)) }
                        if Array(seen.prefix(known)) != expected || Set(seen).count != seen.count {
                            run.problems.withLock { $0.append("a read after \(known) acknowledged saw \(seen.count) fixes, not each once") }
                        }
                        reads += 1
                    }
                }
            }
            try await group.waitForAll()
        }

        #expect(run.problems.withLock { $0 }.isEmpty, "\(run.problems.withLock { $0.prefix(3) })")
        #expect(run.steps.load(ordering: .sequentiallyConsistent) > 0, "compaction ran while fixes came")
        #expect(try await archive.count() == 2 * total)
    }
}

/// What the tasks of a concurrent run share: how many batches were
/// acknowledged, whether the writer is done, the compaction steps done
/// meanwhile, and what readers saw wrong.
private final class ConcurrentRun: Sendable {
    let acknowledged = Atomic<Int>(0)
    let steps = Atomic<Int>(0)
    let done = Atomic<Bool>(false)
    let problems = Mutex<[String]>([])
}
