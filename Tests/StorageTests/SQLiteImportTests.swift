import FixRecords
import Foundation
import GeoKit
import SQLiteStorage
import Testing
@testable import PostgresStorage
@testable import Storage

/// `mytaxi db import-sqlite`'s work: an embedded store filled through the
/// real SQLite stores, imported, then read back through the PostgreSQL
/// stores, which must answer every question as the SQLite ones did.
@Suite(.enabled(if: PostgresTestDatabase.available, PostgresTestDatabase.skipReason), .timeLimit(.minutes(20)))
struct SQLiteImportTests {
    static let start = Date(timeIntervalSince1970: 1_790_000_000.123)
    static let zones = Data("""
        {"type":"FeatureCollection","features":[{"type":"Feature","id":"7","properties":{},
        "geometry":{"type":"Polygon","coordinates":[[[-74,40.7],[-73.9,40.7],[-73.9,40.8],[-74,40.8],[-74,40.7]]]}}]}
        """.utf8)

    /// Fills every SQLite store of `directory` as a service would, and returns what was written where it matters.
    /// A snapshot of learned speeds as the service saves it.
    static let learnedSpeeds = StoredLearnedSpeeds(graphFingerprint: "v1-36-120-abc", savedAt: start, cells: Data((0..<28).map { UInt8($0) }))

    static func fillEmbeddedStore(_ directory: String) async throws -> [AcceptedFix] {
        // Two days of fixes: one batch moved into the store, one left in the journal, one fix in both.
        let moved = (0..<300).map { makeFix(taxi: "T\($0 % 3)", second: $0 * 10) }
        let journaled = (0..<200).map { makeFix(taxi: "T\($0 % 4)", second: 86_400 + $0 * 10) } + [moved[5]]
        do {
            let archive = try SQLiteFixArchive(directory: directory, moveInterval: .seconds(3600))
            try archive.append(moved)
            try archive.moveJournalToStore()
            try archive.append(journaled)
        }

        let accounts = try SQLiteAccountStore(directory: directory)
        let ada = try await accounts.insert(
            NewAccount(username: "Ada", role: .dispatcher, email: nil, passwordHash: "$2b$04$ada", taxi: nil,
                       emailConfirmed: true, createdAt: start), confirmation: nil)
        let bea = try await accounts.insert(
            NewAccount(username: "bea", role: .passenger, email: "bea@example.org", passwordHash: "$2b$04$bea", taxi: nil,
                       emailConfirmed: false, createdAt: start),
            confirmation: AccountConfirmation(
                tokenHash: Data(repeating: 1, count: 32), createdAt: start, expiresAt: start.addingTimeInterval(86_400),
                email: EmailMessage(to: "bea@example.org", subject: "Confirm", body: "token 1")))
        _ = try await accounts.insert(
            NewAccount(username: "Cy", role: .driver, email: nil, passwordHash: "$2b$04$cy", taxi: "T1",
                       emailConfirmed: true, createdAt: start), confirmation: nil)
        try await accounts.insertToken(TokenRecord(
            hash: Data(repeating: 2, count: 32), accountID: ada.id, kind: .session, createdAt: start,
            expiresAt: start.addingTimeInterval(3600)))
        _ = try await accounts.setDisabled(true, accountID: bea.id)

        let log = try SQLiteDispatchLog(directory: directory)
        let ride = RideHistoryRecord(
            ride: "R1", reservation: nil, passenger: "bea", taxi: "T1", pickup: Coordinate(longitude: -73.98, latitude: 40.75),
            destination: nil, pickupAt: nil, endedAt: start, outcome: .completed)
        try log.write([
            .entry(DispatchLogEntry(sequence: 1, payload: Data("one".utf8))),
            .notification(StoredNotification(key: NotificationKey(sequence: 1, index: 0), recipient: "taxi:T1", payload: Data("a".utf8))),
            .notification(StoredNotification(key: NotificationKey(sequence: 1, index: 1), recipient: "passenger:bea", payload: Data("b".utf8))),
        ])
        try log.write([
            .entry(DispatchLogEntry(sequence: 2, payload: Data("two".utf8))), .history(ride),
            .counts([HourlyCount(subject: "zone/161", hour: start, measure: "requests", count: 3)]),
            .snapshot(DispatchLogSnapshot(sequence: 2, payload: Data("state".utf8))),
        ])
        try await log.markNotificationsDelivered([(recipient: "taxi:T1", through: NotificationKey(sequence: 1, index: 0))])

        let zoneSets = try SQLiteZoneSetStore(directory: directory)
        _ = try await zoneSets.add(geoJSON: zones, zoneCount: 1, uploadedBy: "planner", at: start, comment: "first")
        _ = try await zoneSets.add(geoJSON: zones, zoneCount: 1, uploadedBy: "planner", at: start.addingTimeInterval(60), comment: nil)
        _ = try await zoneSets.activate(1, by: "planner", at: start.addingTimeInterval(120))

        try await SQLiteLearnedSpeedStore(directory: directory).save(learnedSpeeds)
        return moved + journaled
    }

    @Test func everyStoreReadsBackFromPostgreSQLAsFromSQLite() async throws {
        let directory = TemporaryDirectory()
        let fixes = try await Self.fillEmbeddedStore(directory.path)
        let database = try PostgresTestDatabase.make()
        defer { database.cleanUp() }

        var progress: [String] = []
        let summary = try SQLiteImport.run(from: try SQLiteStoreReader(directory: directory.path), into: database.pool) {
            progress.append($0)
        }
        #expect(summary.fixes == 500, "a fix in both the journal and the store is imported once")
        #expect(summary.accounts == 3 && summary.tokens == 2 && summary.outboxEmails == 1)
        #expect(summary.dispatchLogEntries == 2 && summary.dispatchSnapshot && summary.rides == 1 && summary.notifications == 2)
        #expect(summary.zoneSetVersions == 2 && summary.statistics == 1)
        #expect(summary.learnedSpeeds)
        #expect(progress.contains { $0.hasPrefix("fixes: 501 of 501 read") })

        let sqliteArchive = try SQLiteFixArchive(directory: directory.path)
        let postgresArchive = PostgresFixArchive(pool: database.pool)
        #expect(try await postgresArchive.count() == 500)
        let window = fixes[0].time...fixes[0].time.addingTimeInterval(2 * 86_400)
        for taxi in ["T0", "T1", "T2", "T3"] {
            let imported = try await postgresArchive.fixes(of: TaxiID(taxi), in: window, limit: 1_000)
            #expect(imported == (try await sqliteArchive.fixes(of: TaxiID(taxi), in: window, limit: 1_000)), "taxi \(taxi)")
            #expect(!imported.isEmpty)
        }
        #expect(try await postgresArchive.latestFixPerTaxi() == (try await sqliteArchive.latestFixPerTaxi()))

        let sqliteAccounts = try SQLiteAccountStore(directory: directory.path)
        let postgresAccounts = PostgresAccountStore(pool: database.pool)
        #expect(try await postgresAccounts.accounts(role: nil) == (try await sqliteAccounts.accounts(role: nil)))
        for byte: UInt8 in [1, 2] {
            let hash = Data(repeating: byte, count: 32)
            let imported = try #require(try await postgresAccounts.token(hash: hash))
            let original = try #require(try await sqliteAccounts.token(hash: hash))
            #expect(imported.token == original.token && imported.account == original.account)
        }
        #expect(try await postgresAccounts.outbox(limit: 10) == (try await sqliteAccounts.outbox(limit: 10)))
        let next = try await postgresAccounts.insert(
            NewAccount(username: "dan", role: .planner, email: nil, passwordHash: "$2b$04$dan", taxi: nil,
                       emailConfirmed: true, createdAt: Self.start), confirmation: nil)
        #expect(next.id == 4, "new accounts get ids after the imported ones")

        let sqliteLog = try SQLiteDispatchLog(directory: directory.path)
        let postgresLog = PostgresDispatchLog(pool: database.pool)
        #expect(try await postgresLog.entries(after: 0) == (try await sqliteLog.entries(after: 0)))
        #expect(try await postgresLog.latestSnapshot() == (try await sqliteLog.latestSnapshot()))
        #expect(try await postgresLog.history(ofPassenger: "bea", since: .distantPast, limit: 10)
            == (try await sqliteLog.history(ofPassenger: "bea", since: .distantPast, limit: 10)))
        #expect(try await postgresLog.undeliveredNotifications(for: "taxi:T1", limit: 10).isEmpty, "delivered stays delivered")
        let hours = Self.start.addingTimeInterval(-86_400)..<Self.start.addingTimeInterval(86_400)
        #expect(try await postgresLog.counts(ofSubjectsPrefixed: "", hours: hours) == (try await sqliteLog.counts(ofSubjectsPrefixed: "", hours: hours)))
        #expect(try await postgresLog.counts(ofSubjectsPrefixed: "zone/", hours: hours).map(\.count) == [3])
        #expect(try await postgresLog.undeliveredNotifications(for: "passenger:bea", limit: 10)
            == (try await sqliteLog.undeliveredNotifications(for: "passenger:bea", limit: 10)))

        let sqliteZones = try SQLiteZoneSetStore(directory: directory.path)
        let postgresZones = PostgresZoneSetStore(pool: database.pool)
        #expect(try await postgresZones.versions() == (try await sqliteZones.versions()))
        #expect(try await postgresZones.activeVersion()?.version == 1)
        #expect(try await postgresZones.geoJSON(of: 2) == Self.zones)
        let added = try await postgresZones.add(geoJSON: Self.zones, zoneCount: 1, uploadedBy: "planner", at: Self.start, comment: nil)
        #expect(added.version == 3, "new versions are numbered after the imported ones")
        let geometries = try database.pool.withConnection {
            try $0.query("SELECT count(*) AS n FROM zone_set_zone WHERE zone_id = '7'").integer(0, "n")
        }
        #expect(geometries == 3, "each version's zone is a PostGIS geometry")

        #expect(try await PostgresLearnedSpeedStore(pool: database.pool).load() == Self.learnedSpeeds,
                "the learned speeds go on where they were")
    }

    @Test func aDatabaseInUseIsRefusedAndLeftAsItWas() async throws {
        let directory = TemporaryDirectory()
        _ = try await Self.fillEmbeddedStore(directory.path)
        let database = try PostgresTestDatabase.make()
        defer { database.cleanUp() }
        try PostgresFixArchive(pool: database.pool).append([makeFix(taxi: "X", second: 0)])

        #expect {
            try SQLiteImport.run(from: try SQLiteStoreReader(directory: directory.path), into: database.pool) { _ in }
        } throws: { error in
            guard case SQLiteImportError.targetNotEmpty(_, let holds) = error else { return false }
            return holds == ["1 fixes"] && "\(error)".contains("nothing was imported")
        }
        #expect(try await PostgresFixArchive(pool: database.pool).count() == 1)
        #expect(try await PostgresAccountStore(pool: database.pool).accounts(role: nil).isEmpty)
    }

    @Test func aFailedImportLeavesTheDatabaseEmptySoItCanBeRunAgain() async throws {
        let directory = TemporaryDirectory()
        _ = try await Self.fillEmbeddedStore(directory.path)
        // A zone set PostGIS cannot read: the import fails after the accounts went in.
        let broken = Data(#"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Polygon","coordinates":"x"}}]}"#.utf8)
        _ = try await SQLiteZoneSetStore(directory: directory.path)
            .add(geoJSON: broken, zoneCount: 1, uploadedBy: "planner", at: Self.start, comment: nil)
        let database = try PostgresTestDatabase.make()
        defer { database.cleanUp() }

        #expect {
            try SQLiteImport.run(from: try SQLiteStoreReader(directory: directory.path), into: database.pool) { _ in }
        } throws: { error in
            guard case SQLiteImportError.refused = error else { return false }
            return "\(error)".contains("rolled back")
        }
        #expect(try await PostgresFixArchive(pool: database.pool).count() == 0)
        #expect(try await PostgresAccountStore(pool: database.pool).accounts(role: nil).isEmpty)
        #expect(try await PostgresZoneSetStore(pool: database.pool).versions().isEmpty)
    }
}

/// What the import reads from: the SQLite files of a data directory.
@Suite(.timeLimit(.minutes(20))) struct SQLiteStoreReaderTests {
    @Test func aDirectoryWithoutAStoreIsNamed() throws {
        let directory = TemporaryDirectory()
        #expect {
            try SQLiteStoreReader(directory: directory.path + "/nowhere")
        } throws: { error in
            "\(error)".contains("no embedded store there") && "\(error)".contains("nowhere")
        }
    }
}
