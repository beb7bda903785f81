import ArgumentParser
import FixRecords
import Foundation
import GeoKit
import SQLiteStorage
import Storage
import Synchronization
import Zones

/// `mytaxi-archivebench compaction`: what compaction buys and costs on a
/// large SQLite archive. Optionally fills the archive first (one fix per
/// taxi every 30 s of fix time, ending two hours ago, moved into the store
/// as the mover would), then times one taxi's one-day query and counts the
/// segments it seeks in; with `--compact`, appends fixes at an ingest-like
/// rate (a baseline first, then during compaction) while compacting step
/// by step as `mytaxi serve` does, and reports the journal mover's moves in
/// both phases, the steps and the query again.
struct CompactionBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compaction",
        abstract: "One taxi's one-day query before and after compacting a large SQLite archive, and the mover's moves meanwhile.")

    @Option(help: "The SQLite archive's data directory (created when missing, kept afterwards).")
    var dataDir: String

    @Option(help: "Fixes to add first, one per taxi every 30 s of fix time ending two hours ago (0: the archive as it is).")
    var fill = 0

    @Option(help: "Taxis the fixes come from.")
    var taxis = 10_000

    @Option(help: "Start of the 24-hour window queried, ISO 8601 (default: the hour after the fill's first fix).")
    var dayStart: String?

    @Option(help: "One-day queries per measurement, each of a random taxi.")
    var queries = 200

    @Flag(help: "Compact the archive, with fixes appended meanwhile, and measure again.")
    var compact = false

    @Option(help: "Fixes a second appended during the baseline and the compaction, as ingest would.")
    var ingestRate = 20_000

    @Option(help: "Seconds of appending before compaction starts: the mover's baseline.")
    var baselineSeconds = 20

    @Option(help: "Rows a compaction step reads at most.")
    var stepRows = SQLiteFixArchive.defaultCompactionStepRows

    @Option(help: "Milliseconds between two compaction steps.")
    var pauseMilliseconds = 500

    func validate() throws {
        guard fill >= 0, taxis > 0, queries > 0, ingestRate > 0, baselineSeconds >= 0, stepRows > 0, pauseMilliseconds >= 0 else {
            throw ValidationError("--fill, --baseline-seconds and --pause-milliseconds must be 0 or more; --taxis, --queries, --ingest-rate and --step-rows positive")
        }
        if fill == 0, dayStart == nil { throw ValidationError("without --fill, give --day-start (the fill printed it)") }
        if let dayStart, FixTime.date(iso8601: dayStart) == nil {
            throw ValidationError("--day-start must be an ISO 8601 time such as 2026-11-25T08:00:00Z, not '\(dayStart)'")
        }
    }

    func run() async throws {
        try FileManager.default.createDirectory(atPath: dataDir, withIntermediateDirectories: true)
        let moves = MoveLog()
        let archive = try SQLiteFixArchive(directory: dataDir, onMove: { moves.record($0) })
        let rounds = fill / taxis
        let fillStart = Self.hourFloor(Date().addingTimeInterval(-Double(rounds) * 30 - 2 * 3600))
        if fill > 0 { try fillArchive(archive, rounds: rounds, from: fillStart) }
        let day = dayStart.flatMap(FixTime.date(iso8601:)) ?? fillStart.addingTimeInterval(3600)
        let window = day...day.addingTimeInterval(86_400)
        print("one-day window \(FixTime.iso8601(window.lowerBound)) to \(FixTime.iso8601(window.upperBound)), \(taxis) taxis")
        print("| archive | segments | segments a day's query seeks in | fixes a query | query p50 | query p99 |")
        print("| --- | ---: | ---: | ---: | ---: | ---: |")
        try await measureQueries(archive, window: window, label: "as the mover left it")
        guard compact else { return }
        let appender = Appender(archive: archive, taxis: taxis, rate: ingestRate)
        appender.start()
        moves.phase = .baseline
        try await Task.sleep(for: .seconds(baselineSeconds))
        moves.phase = .compaction
        let compaction = try await compactAll(archive)
        moves.phase = .after
        appender.stop()
        try await measureQueries(archive, window: window, label: "compacted")
        print("")
        print("compaction: \(compaction.steps.count) steps, \(compaction.merged) segments merged, \(compaction.fixes) fixes, \(Milliseconds.text(compaction.total)) in all (with \(pauseMilliseconds) ms pauses); step p50 \(Milliseconds.text(compaction.steps.percentile(50))), max \(Milliseconds.text(compaction.steps.percentile(100)))")
        print("appended meanwhile: \(appender.appended) fixes at \(ingestRate) fixes/s offered")
        print("| journal mover | moves | fixes a move p50 | move p50 | move p99 | move max |")
        print("| --- | ---: | ---: | ---: | ---: | ---: |")
        for phase in [MoveLog.Phase.baseline, .compaction] {
            let phaseMoves = moves.moves(in: phase)
            let fixes = phaseMoves.map(\.storedFixes).sorted()
            let durations = phaseMoves.map(\.duration)
            print("| \(phase == .baseline ? "before compaction" : "during compaction") | \(phaseMoves.count) | \(fixes.isEmpty ? 0 : fixes[fixes.count / 2]) | \(Milliseconds.text(durations.percentile(50))) | \(Milliseconds.text(durations.percentile(99))) | \(Milliseconds.text(durations.percentile(100))) |")
        }
    }

    /// Appends `rounds` rounds of one fix per taxi, each moved into the store at once.
    private func fillArchive(_ archive: SQLiteFixArchive, rounds: Int, from start: Date) throws {
        let clock = ContinuousClock()
        let started = clock.now
        for round in 0..<rounds {
            try archive.append((0..<taxis).map { fix(taxi: $0, round: round, start: start) })
            try archive.moveJournalToStore()
            if (round + 1) % 500 == 0 || round + 1 == rounds {
                print("filled \((round + 1) * taxis) fixes in \(Milliseconds.text(clock.now - started))")
            }
        }
    }

    /// Taxi `taxi`'s fix of round `round`: 30 s of fix time per round, the
    /// taxis spread over the 30 s, each drifting east.
    private func fix(taxi: Int, round: Int, start: Date) -> AcceptedFix {
        let time = start.addingTimeInterval(Double(round) * 30 + Double(taxi % 30))
        return AcceptedFix(
            taxiId: TaxiID("T\(taxi)"), deviceId: "35\(taxi)", wireProtocol: .line, time: time,
            coordinate: Coordinate(longitude: -74.0 + Double(taxi) * 1e-6 + Double(round) * 1e-6, latitude: 40.75),
            speedKmh: 25, heading: 90, zoneId: "161", receivedAt: time.addingTimeInterval(1))
    }

    /// Times `queries` one-day queries of random taxis (after a tenth as many to warm the cache).
    private func measureQueries(_ archive: SQLiteFixArchive, window: ClosedRange<Date>, label: String) async throws {
        var generator = SystemRandomNumberGenerator()
        var durations: [Duration] = []
        var fixes = 0
        for index in 0..<(queries + queries / 10) {
            let taxi = TaxiID("T\(Int.random(in: 0..<taxis, using: &generator))")
            let clock = ContinuousClock()
            let started = clock.now
            let found = try await archive.fixes(of: taxi, in: window, limit: 50_000)
            guard index >= queries / 10 else { continue }
            durations.append(clock.now - started)
            fixes += found.count
        }
        let segments = try await archive.segmentCount()
        let seeks = try await archive.segmentsOverlapping(window)
        print("| \(label) | \(segments) | \(seeks) | \(fixes / queries) | \(Milliseconds.text(durations.percentile(50))) | \(Milliseconds.text(durations.percentile(99))) |")
    }

    /// Compacts until nothing qualifies, pausing between steps.
    private func compactAll(_ archive: SQLiteFixArchive) async throws -> (steps: [Duration], merged: Int, fixes: Int, total: Duration) {
        let clock = ContinuousClock()
        let started = clock.now
        let horizon = Date().addingTimeInterval(-3600)
        var steps: [Duration] = []
        var merged = 0
        var fixes = 0
        while let report = try await archive.compactOldestSegments(closedBefore: horizon, maximumRows: stepRows) {
            steps.append(report.duration)
            merged += report.mergedSegments
            fixes += report.fixesStored
            try await Task.sleep(for: .milliseconds(pauseMilliseconds))
        }
        return (steps, merged, fixes, clock.now - started)
    }

    private static func hourFloor(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 / 3600).rounded(.down) * 3600)
    }
}

/// The journal mover's reports, by the phase of the run they came in.
private final class MoveLog: Sendable {
    enum Phase { case fill, baseline, compaction, after }

    private let state = Mutex<(phase: Phase, moves: [(Phase, JournalMoveReport)])>((.fill, []))

    var phase: Phase {
        get { state.withLock { $0.phase } }
        set { state.withLock { $0.phase = newValue } }
    }

    func record(_ move: JournalMoveReport) {
        state.withLock { $0.moves.append(($0.phase, move)) }
    }

    func moves(in phase: Phase) -> [JournalMoveReport] {
        state.withLock { $0.moves.filter { $0.0 == phase }.map(\.1) }
    }
}

/// Appends fixes of the present at a steady rate on a thread of its own,
/// a tenth of a second's worth at a time, as the group committer would
/// under load.
private final class Appender: Sendable {
    private let archive: SQLiteFixArchive
    private let taxis: Int
    private let rate: Int
    private let state = Mutex<(stopping: Bool, stopped: Bool, appended: Int)>((false, false, 0))

    init(archive: SQLiteFixArchive, taxis: Int, rate: Int) {
        self.archive = archive
        self.taxis = taxis
        self.rate = rate
    }

    /// Fixes appended so far.
    var appended: Int { state.withLock { $0.appended } }

    func start() {
        Thread { [self] in
            var sequence = 0
            while !state.withLock({ $0.stopping }) {
                let now = Date()
                let batch = (0..<max(1, rate / 10)).map { _ in
                    sequence += 1
                    let taxi = sequence % taxis
                    return AcceptedFix(
                        taxiId: TaxiID("T\(taxi)"), deviceId: "35\(taxi)", wireProtocol: .line,
                        time: now.addingTimeInterval(Double(sequence / taxis) * 0.001),
                        coordinate: Coordinate(longitude: -73.98, latitude: 40.75), speedKmh: 25, heading: 90, zoneId: "161",
                        receivedAt: now)
                }
                do {
                    try archive.append(batch)
                    state.withLock { $0.appended += batch.count }
                } catch {
                    print("append failed: \(error)")
                }
                Thread.sleep(forTimeInterval: max(0, 0.1 - Date().timeIntervalSince(now)))
            }
            state.withLock { $0.stopped = true }
        }.start()
    }

    func stop() {
        state.withLock { $0.stopping = true }
        while !state.withLock({ $0.stopped }) { Thread.sleep(forTimeInterval: 0.01) }
    }
}
