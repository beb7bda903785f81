import Foundation
import PostgresStorage
import SQLiteStorage
import Storage
import Testing

/// The `LearnedSpeedStore` contract, run against every implementation:
/// nothing until a save, then the latest snapshot whole, after a reopen too.
@Suite(.timeLimit(.minutes(20))) struct LearnedSpeedStoreContractTests {
    static let implementations = ["in-memory", "sqlite"] + PostgresTestDatabase.implementation("postgresql")

    static func make(_ name: String) throws -> (store: any LearnedSpeedStore, reopen: (() throws -> any LearnedSpeedStore)?, cleanUp: () -> Void) {
        switch name {
        case "postgresql":
            let database = try PostgresTestDatabase.make()
            return (PostgresLearnedSpeedStore(pool: database.pool), { PostgresLearnedSpeedStore(pool: PostgresPool(url: database.url)) },
                    database.cleanUp)
        case "sqlite":
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("mytaxi-learned-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            return (try SQLiteLearnedSpeedStore(directory: path), { try SQLiteLearnedSpeedStore(directory: path) },
                    { try? FileManager.default.removeItem(atPath: path) })
        default:
            return (InMemoryLearnedSpeedStore(), nil, {})
        }
    }

    @Test(arguments: implementations)
    func theLatestSnapshotIsKeptWhole(implementation: String) async throws {
        let (store, reopen, cleanUp) = try Self.make(implementation)
        defer { cleanUp() }
        #expect(try await store.load() == nil, "nothing learned yet")
        let first = StoredLearnedSpeeds(graphFingerprint: "v1-10-20-abc", savedAt: Date(timeIntervalSince1970: 1_790_000_000.5),
                                        cells: Data((0..<1400).map { UInt8($0 % 251) }))
        try await store.save(first)
        let second = StoredLearnedSpeeds(graphFingerprint: "v1-10-20-abc", savedAt: Date(timeIntervalSince1970: 1_790_000_600),
                                         cells: Data((0..<2800).map { UInt8($0 % 13) }))
        try await store.save(second)
        for reading in [store] + (try reopen.map { [try $0()] } ?? []) {
            #expect(try await reading.load() == second)
        }
    }
}
