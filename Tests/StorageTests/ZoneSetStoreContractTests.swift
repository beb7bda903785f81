import Foundation
import SQLiteStorage
import Storage
import PostgresStorage
import Testing

/// The `ZoneSetStore` contract, run against every implementation.
@Suite(.timeLimit(.minutes(20))) struct ZoneSetStoreContractTests {
    static let implementations = ["in-memory", "sqlite"] + PostgresTestDatabase.implementation("postgresql")
    static let start = Date(timeIntervalSince1970: 1_790_000_000.123)

    static func make(_ name: String) throws -> (store: any ZoneSetStore, reopen: (() throws -> any ZoneSetStore)?, cleanUp: () -> Void) {
        switch name {
        case "postgresql":
            let database = try PostgresTestDatabase.make()
            return (PostgresZoneSetStore(pool: database.pool), { PostgresZoneSetStore(pool: PostgresPool(url: database.url)) }, database.cleanUp)
        case "sqlite":
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("mytaxi-zone-sets-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            return (try SQLiteZoneSetStore(directory: path), { try SQLiteZoneSetStore(directory: path) },
                    { try? FileManager.default.removeItem(atPath: path) })
        default:
            return (InMemoryZoneSetStore(), nil, {})
        }
    }

    @Test(arguments: implementations)
    func versionsAreNumberedInUploadOrderAndKeptWhole(implementation: String) async throws {
        let (store, reopen, cleanUp) = try Self.make(implementation)
        defer { cleanUp() }
        let first = try await store.add(geoJSON: Data("first".utf8), zoneCount: 20, uploadedBy: "planner", at: Self.start, comment: "Midtown")
        let second = try await store.add(geoJSON: Data("second!".utf8), zoneCount: 21, uploadedBy: "ann", at: Self.start.addingTimeInterval(60), comment: nil)
        #expect(first.version == 1)
        #expect(second.version == 2)
        #expect(second.bytes == 7)
        #expect(first.uploadedAt == Date(timeIntervalSince1970: 1_790_000_000.123))
        for reading in [store] + (try reopen.map { [try $0()] } ?? []) {
            #expect(try await reading.versions() == [second, first], "newest first")
            #expect(try await reading.geoJSON(of: 1) == Data("first".utf8))
            #expect(try await reading.geoJSON(of: 3) == nil)
            #expect(try await reading.activeVersion() == nil)
        }
    }

    @Test(arguments: implementations)
    func oneVersionIsActiveAtATimeAndAnEarlierOneCanBeActivatedAgain(implementation: String) async throws {
        let (store, reopen, cleanUp) = try Self.make(implementation)
        defer { cleanUp() }
        _ = try await store.add(geoJSON: Data("a".utf8), zoneCount: 1, uploadedBy: "planner", at: Self.start, comment: nil)
        _ = try await store.add(geoJSON: Data("b".utf8), zoneCount: 2, uploadedBy: "planner", at: Self.start, comment: nil)
        #expect(try await store.activate(3, by: "planner", at: Self.start) == nil, "no such version")
        let second = try #require(try await store.activate(2, by: "planner", at: Self.start.addingTimeInterval(5)))
        #expect(second.activation?.by == "planner")
        let first = try #require(try await store.activate(1, by: "ann", at: Self.start.addingTimeInterval(9)))
        for reading in [store] + (try reopen.map { [try $0()] } ?? []) {
            #expect(try await reading.activeVersion() == first)
            #expect(try await reading.versions().map { $0.activation?.by } == [nil, "ann"])
        }
    }
}
