import Benchmark
import FixRecords
import Fleet
import Foundation
import GeoKit
import Ingest
import SQLiteStorage
import Storage
import Zones

/// The fix archive's write path (SPEC I6): fixes of 10,000 taxis arriving
/// round-robin, appended in group-commit transactions (one fsync each, WAL,
/// synchronous=FULL) to an archive that already holds 500,000 fixes.
/// One iteration is one commit; fixes/s = commits/s × fixes per commit.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.throughput, .wallClock], warmupIterations: 2,
                                           maxDuration: .seconds(5), maxIterations: 500)
    for batchSize in [1_000, 5_000] {
        Benchmark("SQLite archive commit of \(batchSize) fixes, 10k taxis") { (benchmark: Benchmark, archive: BenchmarkArchive) in
            for _ in benchmark.scaledIterations {
                try archive.append(archive.nextBatch(batchSize))
            }
        } setup: {
            let archive = try BenchmarkArchive()
            for _ in 0..<10 { try archive.append(archive.nextBatch(50_000)) }
            return archive
        }
    }
    // The background move (journal to store) of one round of fixes, one per
    // taxi, as at 100,000 fixes/s every 100 ms; flat cost however large the store.
    for storedFixes in [100_000, 2_000_000] {
        Benchmark("SQLite archive move of 10,000 fixes (one per taxi) into a store of \(storedFixes / 1_000)k") {
            (benchmark: Benchmark, archive: BenchmarkArchive) in
            for _ in benchmark.scaledIterations {
                try archive.append(archive.nextBatch(10_000))
                benchmark.startMeasurement()
                try archive.archive.moveJournalToStore()
                benchmark.stopMeasurement()
            }
        } setup: {
            let archive = try BenchmarkArchive(moveInterval: .seconds(3_600))
            for _ in 0..<(storedFixes / 50_000) {
                try archive.append(archive.nextBatch(50_000))
                try archive.archive.moveJournalToStore()
            }
            return archive
        }
    }
}

/// An archive in a temporary directory fed with synthetic fixes of 10,000 taxis.
final class BenchmarkArchive: @unchecked Sendable {
    let directory: String
    let archive: SQLiteFixArchive
    private var sequence = 0

    /// `moveInterval`: how often the archive's own mover runs.
    init(moveInterval: Duration = .milliseconds(100)) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("mytaxi-bench-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        archive = try SQLiteFixArchive(directory: directory, moveInterval: moveInterval)
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    func append(_ fixes: [AcceptedFix]) throws { try archive.append(fixes) }

    func nextBatch(_ size: Int) -> [AcceptedFix] {
        (0..<size).map { _ in
            defer { sequence += 1 }
            let taxi = sequence % 10_000
            let round = Double(sequence / 10_000)
            return AcceptedFix(
                taxiId: TaxiID("T\(taxi)"), deviceId: "35\(taxi)", wireProtocol: .line,
                time: Date(timeIntervalSince1970: 1_790_000_000 + round * 30),
                coordinate: Coordinate(longitude: -73.98 + Double(taxi) * 1e-5, latitude: 40.75),
                speedKmh: 25, heading: 180, zoneId: "161",
                receivedAt: Date(timeIntervalSince1970: 1_790_000_001 + round * 30))
        }
    }
}
