import FixRecords
import Fleet
import Foundation
import GeoKit
import Ingest
import PostgresStorage
import SQLiteStorage
import Testing
@testable import Storage

/// The `FixArchive` contract, run against every implementation: what the
/// API and a restart rely on, whichever store is behind them (PostgreSQL
/// when `make test` started a cluster).
@Suite(.timeLimit(.minutes(20))) struct FixArchiveContractTests {
    /// The implementations under test, by name.
    static let implementations = ["in-memory", "sqlite"] + PostgresTestDatabase.implementation("postgresql")

    /// A fresh, empty archive of kind `name`, and what removes it afterwards.
    static func make(_ name: String) throws -> (archive: any FixArchive, cleanUp: () -> Void) {
        switch name {
        case "postgresql":
            let database = try PostgresTestDatabase.make()
            return (PostgresFixArchive(pool: database.pool), database.cleanUp)
        case "sqlite":
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("mytaxi-contract-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            return (try SQLiteFixArchive(directory: path), { try? FileManager.default.removeItem(atPath: path) })
        default:
            return (InMemoryFixArchive(), {})
        }
    }

    static let base = Date(timeIntervalSince1970: 1_790_000_000)

    @Test(arguments: implementations)
    func aWindowComesBackOldestFirstWithinTheLimit(implementation: String) async throws {
        let (archive, cleanUp) = try Self.make(implementation)
        defer { cleanUp() }
        try archive.append([makeFix(taxi: "T1", second: 60), makeFix(taxi: "T2", second: 10), makeFix(taxi: "T1", second: 0)])
        try archive.append([makeFix(taxi: "T1", second: 30), makeFix(taxi: "T1", second: 90)])
        let window = try await archive.fixes(of: "T1", in: Self.base...Self.base.addingTimeInterval(60), limit: 100)
        #expect(window.map(\.time) == [0, 30, 60].map { Self.base.addingTimeInterval($0) })
        #expect(window.first == makeFix(taxi: "T1", second: 0), "every field comes back as stored")
        let limited = try await archive.fixes(of: "T1", in: Self.base...Self.base.addingTimeInterval(90), limit: 2)
        #expect(limited.map(\.time) == [0, 30].map { Self.base.addingTimeInterval($0) })
    }

    @Test(arguments: implementations)
    func aFixAppendedTwiceIsOneFix(implementation: String) async throws {
        let (archive, cleanUp) = try Self.make(implementation)
        defer { cleanUp() }
        try archive.append([makeFix(taxi: "T1", second: 0)])
        try archive.append([makeFix(taxi: "T1", second: 0), makeFix(taxi: "T1", second: 30)])
        #expect(try await archive.count() == 2)
        #expect(try await archive.fixes(of: "T1", in: Self.base...Self.base.addingTimeInterval(60), limit: 10).count == 2)
    }

    @Test(arguments: implementations)
    func theLatestFixOfEveryTaxiIsItsNewest(implementation: String) async throws {
        let (archive, cleanUp) = try Self.make(implementation)
        defer { cleanUp() }
        try archive.append([makeFix(taxi: "T1", second: 60), makeFix(taxi: "T2", second: 10)])
        try archive.append([makeFix(taxi: "T1", second: 30)])
        let latest = try await archive.latestFixPerTaxi()
        #expect(latest.map(\.taxiId) == ["T1", "T2"])
        #expect(latest.map(\.time) == [Self.base.addingTimeInterval(60), Self.base.addingTimeInterval(10)])
    }

    @Test(arguments: implementations)
    func nonASCIIIdentifiersAndAMissingZoneComeBackAsTheyWere(implementation: String) async throws {
        let (archive, cleanUp) = try Self.make(implementation)
        defer { cleanUp() }
        let fix = AcceptedFix(
            taxiId: "Такси-7", deviceId: "gerät-ü", wireProtocol: .osmand, time: Self.base.addingTimeInterval(0.125),
            coordinate: Coordinate(longitude: 7.42, latitude: 43.73), speedKmh: 0, heading: 359.5, zoneId: nil,
            receivedAt: Self.base.addingTimeInterval(1))
        try archive.append([fix])
        #expect(try await archive.fixes(of: "Такси-7", in: Self.base...Self.base.addingTimeInterval(1), limit: 10) == [fix])
    }

    @Test(arguments: implementations)
    func retentionDeletesWhatIsOlderAndKeepsEverythingElse(implementation: String) async throws {
        let (archive, cleanUp) = try Self.make(implementation)
        defer { cleanUp() }
        let day = 86_400
        // Three days of fixes for T1, one old fix only for T2, in batches as group commits make them.
        for hour in stride(from: 0, to: 72, by: 6) {
            try archive.append([makeFix(taxi: "T1", second: hour * 3600), makeFix(taxi: "T1", second: hour * 3600 + 30)])
        }
        try archive.append([makeFix(taxi: "T2", second: 3600)])
        let cutoff = Self.base.addingTimeInterval(Double(3 * day / 2))
        let expectedDeleted = 12 + 1
        #expect(try await archive.deleteFixes(takenBefore: cutoff) == expectedDeleted)
        #expect(try await archive.count() == 24 + 1 - expectedDeleted)
        let kept = try await archive.fixes(of: "T1", in: Self.base...Self.base.addingTimeInterval(Double(3 * day)), limit: 100)
        #expect(kept.first?.time == cutoff, "the first fix at or after the cutoff stays")
        #expect(kept.count == 12 && kept.allSatisfy { $0.time >= cutoff })
        #expect(try await archive.latestFixPerTaxi().map(\.taxiId) == ["T1"], "a taxi silent since before the cutoff is not restored")
        #expect(try await archive.deleteFixes(takenBefore: cutoff) == 0, "a second run finds nothing more")
        try archive.append([makeFix(taxi: "T2", second: 3 * day)])
        #expect(try await archive.count() == 13, "the archive takes fixes after retention ran")
        if implementation != "in-memory" { #expect(try await archive.storedBytes() > 0) }
    }
}
