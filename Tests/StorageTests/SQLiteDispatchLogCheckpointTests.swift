import Foundation
import SQLiteStorage
import Storage
import TestSupport
import Testing

/// The SQLite dispatch log's write-ahead log reaches the database file by
/// a checkpointer of its own, in the background, not by the commits.
@Suite(.timeLimit(.minutes(20))) struct SQLiteDispatchLogCheckpointTests {
    static func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// 200 kB of entries, far below SQLite's automatic checkpoint (1,000
    /// pages, 4 MB), are in the database file shortly after their commit.
    @Test func committedEntriesReachTheDatabaseFileInTheBackground() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mytaxi-checkpoint-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let log = try SQLiteDispatchLog(directory: directory)
        let file = directory + "/dispatch.sqlite"
        let before = Self.size(file)
        try log.write((1...200).map { .entry(DispatchLogEntry(sequence: $0, payload: Data(repeating: 65, count: 1_000))) })
        try await waitUntil("the entries checkpointed into the database file") { Self.size(file) } satisfies: { $0 >= before + 150_000 }
        #expect(try await log.entries(after: 0).count == 200)
    }
}
