import ArgumentParser
import FixRecords
import Foundation
import GeoKit
import PostgresStorage
import SQLiteStorage
import Storage
import Zones

/// `mytaxi-archivebench stores` (the default): archived fixes/s through
/// PostgreSQL's COPY, through multi-row INSERT and through the SQLite store,
/// in one run, with the same batches (Tools/bench-archive.sh starts a
/// throwaway PostgreSQL). One writer appends batch after batch, as the
/// group committer does; each append returns once its batch is committed
/// to the store's journal. Then PostgreSQL's background move of those
/// fixes from the journal into the indexed `fixes`, measured alone: what
/// PostgreSQL can archive for good, a second, on this machine.
struct StoreComparison: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stores",
        abstract: "Archived fixes/s: PostgreSQL COPY vs multi-row INSERT vs the SQLite store, same batches.")

    @Option(help: ArgumentHelp("The PostgreSQL database (its fix tables are emptied first).", valueName: "postgres://..."))
    var database: String

    @Option(help: "Fixes per batch (one group commit).")
    var batch = 5_000

    @Option(help: "Batches per store.")
    var batches = 40

    @Option(help: "Taxis the fixes come from, round-robin.")
    var taxis = 10_000

    func run() throws {
        guard batch > 0, batches > 0, taxis > 0 else { throw ValidationError("--batch, --batches and --taxis must be positive") }
        let workload = (0..<batches).map { makeBatch($0) }
        let pool = PostgresPool(url: try PostgresURL(database), maximumConnections: 1)
        try PostgresSchema.migrate(pool)
        // Moves only when asked for, so that commits are measured alone.
        let archive = PostgresFixArchive(pool: pool, moveInterval: .seconds(86_400))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mytaxi-archivebench-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let sqlite = try SQLiteFixArchive(directory: directory)
        print("\(batches) batches of \(batch) fixes from \(taxis) taxis, one writer")
        print("| store | fixes/s | commit p50 | commit p99 |")
        print("| --- | ---: | ---: | ---: |")
        let runs: [(String, ([AcceptedFix]) throws -> Void)] = [
            ("PostgreSQL, binary COPY into the journal", { try archive.append($0) }),
            ("PostgreSQL, multi-row INSERT (1,000 rows a statement) into the journal", { try archive.appendByInsert($0) }),
            ("SQLite (journal, synchronous=FULL)", { try sqlite.append($0) }),
        ]
        for (name, append) in runs {
            try pool.withConnection { try $0.execute("TRUNCATE fixes, latest_fixes, fix_journal") }
            try append(makeBatch(batches))
            try archive.moveJournalToStore()
            var durations: [Duration] = []
            let total = try ContinuousClock().measure {
                for fixes in workload { durations.append(try ContinuousClock().measure { try append(fixes) }) }
            }
            print(Self.row(name, fixes: batch * batches, total: total, durations: durations))
        }
        try pool.withConnection { try $0.execute("TRUNCATE fixes, latest_fixes, fix_journal") }
        for fixes in workload { try archive.append(fixes) }
        var moves: [Duration] = []
        var moved = 0
        let total = try ContinuousClock().measure {
            while let move = try archive.moveJournalOnce() {
                moves.append(move.duration)
                moved += move.storedFixes
            }
        }
        print(Self.row("PostgreSQL, the background move from the journal into `fixes` (a move's p50 / p99)", fixes: moved, total: total, durations: moves))
    }

    /// A table row: `fixes` in `total` as fixes/s, and the p50 and p99 of `durations`.
    private static func row(_ name: String, fixes: Int, total: Duration, durations: [Duration]) -> String {
        let sorted = durations.sorted()
        let rate = Double(fixes) / (Double(total.components.attoseconds) / 1e18 + Double(total.components.seconds))
        return "| \(name) | \(Int(rate.rounded())) | \(Milliseconds.text(sorted.percentile(50))) | \(Milliseconds.text(sorted.percentile(99))) |"
    }

    /// Batch `index`: fixes of the taxis in turn, 30 s of fix time apart per round.
    private func makeBatch(_ index: Int) -> [AcceptedFix] {
        (0..<batch).map { offset in
            let sequence = index * batch + offset
            let taxi = sequence % taxis
            let round = Double(sequence / taxis)
            return AcceptedFix(
                taxiId: TaxiID("T\(taxi)"), deviceId: "35\(taxi)", wireProtocol: .line,
                time: Date(timeIntervalSince1970: 1_790_000_000 + round * 30),
                coordinate: Coordinate(longitude: -73.98 + Double(taxi) * 1e-5, latitude: 40.75),
                speedKmh: 25, heading: 180, zoneId: "161",
                receivedAt: Date(timeIntervalSince1970: 1_790_000_001 + round * 30))
        }
    }
}
