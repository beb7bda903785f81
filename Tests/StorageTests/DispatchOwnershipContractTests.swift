import Foundation
@testable import PostgresStorage
import ServiceClock
import Storage
import Synchronization
import TestSupport
import Testing

/// The `DispatchOwnership` contract with its fenced dispatch log, run
/// against every implementation: one node holds the engine at a time,
/// another takes it over only once the lease is released or has run out,
/// with a higher epoch, and a deposed owner's writes are refused.
@Suite(.timeLimit(.minutes(20))) struct DispatchOwnershipContractTests {
    static let implementations = ["in-memory"] + PostgresTestDatabase.implementation("postgresql")

    /// How long every lease of the tests runs: never out by itself.
    static let lease = Duration.seconds(600)

    /// Leases and a log sharing them, both of kind `name`; `runOut` makes
    /// the lease held now run out, as if its time had passed: the manual
    /// clock moved on in memory, the lease's end moved into the past on
    /// PostgreSQL (whose clock a test cannot move).
    struct Subject {
        let ownership: any DispatchOwnership
        let log: any FencedDispatchLog
        let runOut: () async throws -> Void
        let cleanUp: () -> Void
    }

    static func make(_ name: String) throws -> Subject {
        switch name {
        case "postgresql":
            let database = try PostgresTestDatabase.make()
            let ownership = PostgresDispatchOwnership(pool: database.pool)
            return Subject(
                ownership: ownership, log: PostgresDispatchLog(pool: database.pool),
                runOut: {
                    try database.pool.withConnection {
                        try $0.execute("UPDATE dispatch_owner SET lease_until = clock_timestamp() - interval '1 millisecond'")
                    }
                },
                cleanUp: database.cleanUp)
        default:
            let clock = ManualClock(now: Date())
            let ownership = InMemoryDispatchOwnership(clock: clock)
            return Subject(
                ownership: ownership, log: InMemoryDispatchLog(ownership: ownership),
                runOut: { clock.advance(by: lease + .milliseconds(1)) }, cleanUp: {})
        }
    }

    static func entry(_ sequence: Int64) -> DispatchLogWrite {
        .entry(DispatchLogEntry(sequence: sequence, payload: Data("command \(sequence)".utf8)))
    }

    /// A log write in flight under the lease holds up a takeover, so that
    /// the new owner reads what the old one wrote, but not its holder's
    /// renewal: a busy owner's writes must not let its own lease run out.
    @Test(.enabled(if: PostgresTestDatabase.available, PostgresTestDatabase.skipReason))
    func aWriteInFlightHoldsUpATakeoverButNotItsHoldersRenewal() async throws {
        let database = try PostgresTestDatabase.make()
        defer { database.cleanUp() }
        let ownership = PostgresDispatchOwnership(pool: database.pool)
        let held = try #require(try await ownership.claim(node: "a", address: "http://a", for: Self.lease))
        let writer = try PostgresConnection(url: database.url)
        defer { try? writer.execute("ROLLBACK") }
        try writer.execute("BEGIN")
        _ = try writer.query(PostgresDispatchLog.fenceCheck, [.text(held.node), .integer(held.epoch)])

        let renewed = Mutex<DispatchLease??>(nil)
        Task {
            let lease = try? await ownership.claim(node: "a", address: "http://a", for: Self.lease)
            renewed.withLock { $0 = .some(lease) }
        }
        try await waitUntil("a's renewal while its write is in flight") { renewed.withLock { $0 } != nil }
        #expect(renewed.withLock { $0 } == .some(held), "renewed with its epoch")

        try database.pool.withConnection {
            try $0.execute("UPDATE dispatch_owner SET lease_until = clock_timestamp() - interval '1 millisecond'")
        }
        let taken = Mutex<DispatchLease??>(nil)
        Task {
            let lease = try? await ownership.claim(node: "b", address: "http://b", for: Self.lease)
            taken.withLock { $0 = .some(lease) }
        }
        try await waitUntil("b's takeover to wait for the write") {
            try database.pool.withConnection {
                try $0.query("SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'DELETE FROM dispatch_owner%'").count == 1
            }
        }
        #expect(taken.withLock { $0 } == nil, "no takeover while the write is in flight")
        try writer.execute("COMMIT")
        try await waitUntil("b's takeover once the write committed") { taken.withLock { $0 } != nil }
        #expect(taken.withLock { $0 } == .some(DispatchLease(node: "b", address: "http://b", epoch: held.epoch + 1)))
    }

    @Test(arguments: implementations)
    func oneNodeHoldsTheEngineUntilItsLeaseIsReleasedOrRunsOut(implementation: String) async throws {
        let subject = try Self.make(implementation)
        defer { subject.cleanUp() }
        let ownership = subject.ownership
        #expect(try await ownership.owner() == nil, "nobody holds a new city's engine")

        let a = try #require(try await ownership.claim(node: "a", address: "http://10.0.0.1:8080", for: Self.lease))
        #expect(try await ownership.claim(node: "b", address: "http://10.0.0.2:8080", for: Self.lease) == nil, "a holds it")
        #expect(try await ownership.owner() == a)
        #expect(try await ownership.claim(node: "a", address: "http://10.0.0.1:8080", for: Self.lease) == a, "a renewal keeps the epoch")

        try await ownership.release(a)
        #expect(try await ownership.owner() == nil, "released at once, for a node draining")
        let b = try #require(try await ownership.claim(node: "b", address: "http://10.0.0.2:8080", for: Self.lease))
        #expect(b.epoch > a.epoch)
        try await ownership.release(a)
        #expect(try await ownership.owner() == b, "releasing a lease taken over does nothing")

        try await subject.runOut()
        #expect(try await ownership.owner() == nil)
        let again = try #require(try await ownership.claim(node: "b", address: "http://10.0.0.2:8080", for: Self.lease))
        #expect(again.epoch > b.epoch, "a lease that ran out is a new holding, even for the same node")
    }

    @Test(arguments: implementations)
    func aDeposedOwnerCannotWriteAndItsSuccessorReadsEverythingItWrote(implementation: String) async throws {
        let subject = try Self.make(implementation)
        defer { subject.cleanUp() }
        let (ownership, log) = (subject.ownership, subject.log)
        let a = try #require(try await ownership.claim(node: "a", address: "http://10.0.0.1:8080", for: Self.lease))
        try log.write([Self.entry(1)], holding: a)

        try await subject.runOut()
        #expect(throws: StorageError.notDispatchOwner(lease: a), "a lease that ran out, though nobody took it over yet") {
            try log.write([Self.entry(2)], holding: a)
        }
        let b = try #require(try await ownership.claim(node: "b", address: "http://10.0.0.2:8080", for: Self.lease))
        #expect(try await ownership.claim(node: "a", address: "http://10.0.0.1:8080", for: Self.lease) == nil)
        #expect(try await log.entries(after: 0).map(\.sequence) == [1], "the new owner reads what the old one wrote, and nothing refused")
        try log.write([Self.entry(2)], holding: b)
        #expect(throws: StorageError.notDispatchOwner(lease: a)) { try log.write([Self.entry(3)], holding: a) }
        #expect(try await log.entries(after: 0).map(\.sequence) == [1, 2])
    }
}
