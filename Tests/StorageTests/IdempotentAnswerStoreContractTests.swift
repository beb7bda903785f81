import Foundation
import PostgresStorage
import SQLiteStorage
import Storage
import Testing

/// The `IdempotentAnswerStore` contract, run against every implementation:
/// the first answer kept for a key wins, is read back whole (after a
/// reopen too) and is forgotten once older than asked.
@Suite(.timeLimit(.minutes(20))) struct IdempotentAnswerStoreContractTests {
    static let implementations = ["in-memory", "sqlite"] + PostgresTestDatabase.implementation("postgresql")

    static func make(_ name: String) throws -> (store: any IdempotentAnswerStore, reopen: (() throws -> any IdempotentAnswerStore)?, cleanUp: () -> Void) {
        switch name {
        case "postgresql":
            let database = try PostgresTestDatabase.make()
            return (PostgresIdempotentAnswerStore(pool: database.pool), { PostgresIdempotentAnswerStore(pool: PostgresPool(url: database.url)) },
                    database.cleanUp)
        case "sqlite":
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("mytaxi-answers-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            return (try SQLiteIdempotentAnswerStore(directory: path), { try SQLiteIdempotentAnswerStore(directory: path) },
                    { try? FileManager.default.removeItem(atPath: path) })
        default:
            return (InMemoryIdempotentAnswerStore(), nil, {})
        }
    }

    static let start = Date(timeIntervalSince1970: 1_790_000_000.25)

    static func answer(_ scope: String, status: Int = 201, body: String, at: Date = start) -> IdempotentAnswer {
        IdempotentAnswer(
            scope: scope, fingerprint: "f-\(body.count)", status: status, contentType: "application/json",
            location: status == 201 ? "/v1/rides/R1" : nil, body: Data(body.utf8), answeredAt: at)
    }

    @Test(arguments: implementations)
    func theFirstAnswerKeptForAKeyWins(implementation: String) async throws {
        let (store, reopen, cleanUp) = try Self.make(implementation)
        defer { cleanUp() }
        let scope = "p1 POST /v1/rides 6F1C2A"
        #expect(try await store.answer(for: scope) == nil)
        let first = Self.answer(scope, body: #"{"rideId": "R1"}"#)
        #expect(try await store.keep(first) == first)
        let second = Self.answer(scope, status: 409, body: #"{"detail": "an open ride"}"#)
        #expect(try await store.keep(second) == first, "a concurrent request with the same key is answered with the first answer")
        let other = Self.answer("p2 POST /v1/rides 6F1C2A", status: 200, body: "{}")
        #expect(try await store.keep(other) == other, "another caller's same key is another scope")
        for reading in [store] + (try reopen.map { [try $0()] } ?? []) {
            #expect(try await reading.answer(for: scope) == first)
            #expect(try await reading.answer(for: other.scope)?.location == nil)
        }
    }

    @Test(arguments: implementations)
    func answersOlderThanAskedAreForgotten(implementation: String) async throws {
        let (store, _, cleanUp) = try Self.make(implementation)
        defer { cleanUp() }
        let old = Self.answer("a POST /v1/rides k1", body: "{}", at: Self.start)
        let recent = Self.answer("a POST /v1/rides k2", body: "{}", at: Self.start.addingTimeInterval(3_600))
        _ = try await store.keep(old)
        _ = try await store.keep(recent)
        #expect(try await store.forget(answeredBefore: Self.start.addingTimeInterval(60)) == 1)
        #expect(try await store.answer(for: old.scope) == nil)
        #expect(try await store.answer(for: recent.scope) == recent)
    }
}
