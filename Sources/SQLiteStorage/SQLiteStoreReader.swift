import FixRecords
import Foundation
import Storage
import GRDB

/// Everything the embedded SQLite stores of a data directory hold (the
/// files `mytaxi serve --data-dir` writes), read as it is, for moving it
/// to another store (`mytaxi db import-sqlite`).
///
/// It reads and never writes: the journal's fixes are read where they
/// are, not moved into the store first. A file that is not there holds
/// nothing (a service that never made an account has no `accounts.sqlite`),
/// but a directory with none of the files is an error, so that a mistyped
/// path is not taken for an empty store. The service must not be running
/// on the directory meanwhile, or the reads miss what it writes after them.
public final class SQLiteStoreReader {
    /// The data directory.
    public let directory: String
    private let fixJournal: DatabaseQueue?
    private let fixStore: DatabaseQueue?
    private let dispatch: DatabaseQueue?
    private let accountsDatabase: DatabaseQueue?
    private let zones: DatabaseQueue?
    private let learnedSpeedsDatabase: DatabaseQueue?

    /// The files of an embedded store.
    public static let fileNames = [
        "fixes-journal.sqlite", "fixes.sqlite", "dispatch.sqlite", "accounts.sqlite", "zones.sqlite", "learned-speeds.sqlite",
    ]

    /// Opens the store files in `directory`.
    /// - Throws: ``StorageError/unavailable(location:reason:)`` when the
    ///   directory holds none of ``fileNames``, or one cannot be opened.
    public init(directory: String) throws(StorageError) {
        self.directory = directory
        let present = Self.fileNames.filter { FileManager.default.fileExists(atPath: directory + "/" + $0) }
        guard !present.isEmpty else {
            throw .unavailable(
                location: "the data directory \(directory)",
                reason: "no embedded store there (none of \(Self.fileNames.joined(separator: ", ")))")
        }
        if present.contains("accounts.sqlite") {
            // An accounts file of an older version is brought to the schema read below.
            _ = try SQLiteAccountStore(directory: directory)
        }
        func open(_ name: String) throws(StorageError) -> DatabaseQueue? {
            guard present.contains(name) else { return nil }
            do {
                var configuration = Configuration()
                configuration.busyMode = .timeout(10)
                return try DatabaseQueue(path: directory + "/" + name, configuration: configuration)
            } catch {
                throw .unavailable(location: "the data directory \(directory)", reason: "\(name): \(error)")
            }
        }
        fixJournal = try open("fixes-journal.sqlite")
        fixStore = try open("fixes.sqlite")
        dispatch = try open("dispatch.sqlite")
        accountsDatabase = try open("accounts.sqlite")
        zones = try open("zones.sqlite")
        learnedSpeedsDatabase = try open("learned-speeds.sqlite")
    }

    /// The fix rows in the journal and the store: an upper bound on the
    /// fixes (a resent fix can be in both), for progress reports.
    public func fixRowCount() throws -> Int {
        let journaled = try read(fixJournal, "fixes-journal.sqlite") { db in
            try SQLiteFixArchive.journalTables.filter { try db.tableExists($0) }
                .reduce(0) { $0 + (try Int.fetchOne(db, sql: "SELECT count(*) FROM \($1)") ?? 0) }
        }
        let stored = try read(fixStore, "fixes.sqlite") { db in
            try db.tableExists("fixes") ? try Int.fetchOne(db, sql: "SELECT count(*) FROM fixes") ?? 0 : 0
        }
        return (journaled ?? 0) + (stored ?? 0)
    }

    /// Hands every fix of the journal, then of the store, to `body` in
    /// batches of at most `batchSize`, streaming (one batch in memory at a
    /// time). A fix resent after a lost ACK can come twice. The journal
    /// first: a row moving into the store meanwhile is then read at least once.
    /// - Throws: ``StorageError/readFailed(reason:)``, or what `body` throws.
    public func forEachFixBatch(size batchSize: Int, _ body: ([AcceptedFix]) throws -> Void) throws {
        let sources: [(DatabaseQueue?, String, [String])] = [
            (fixJournal, "fixes-journal.sqlite", SQLiteFixArchive.journalTables), (fixStore, "fixes.sqlite", ["fixes"]),
        ]
        for (queue, name, tables) in sources {
            _ = try read(queue, name) { db in
                for table in tables {
                    guard try db.tableExists(table) else { continue }
                    var batch: [AcceptedFix] = []
                    batch.reserveCapacity(batchSize)
                    let rows = try Row.fetchCursor(db, sql: "SELECT \(FixStore.columns) FROM \(table)")
                    while let row = try rows.next() {
                        guard let fix = SQLiteFixArchive.fix(from: row) else {
                            let protocolName: String = row["protocol"]
                            throw StorageError.readFailed(reason: "\(name): a fix with the unknown wire protocol \(protocolName)")
                        }
                        batch.append(fix)
                        if batch.count == batchSize {
                            try body(batch)
                            batch.removeAll(keepingCapacity: true)
                        }
                    }
                    if !batch.isEmpty { try body(batch) }
                }
            }
        }
    }

    /// Every account, oldest first.
    public func accounts() throws -> [AccountRecord] {
        try read(accountsDatabase, "accounts.sqlite") { db in
            try Row.fetchAll(
                db, sql: "SELECT \(SQLiteAccountStore.accountColumns) FROM account ORDER BY id"
            ).map(SQLiteAccountStore.account)
        } ?? []
    }

    /// Every token, revoked and expired ones too.
    public func tokens() throws -> [TokenRecord] {
        try read(accountsDatabase, "accounts.sqlite") { db in
            try Row.fetchAll(
                db, sql: "SELECT hash, account_id, kind, created_ms, expires_ms, revoked, email FROM token ORDER BY created_ms, hash")
                .map { row in
                    let kindName: String = row["kind"]
                    guard let kind = TokenKind(rawValue: kindName) else {
                        throw StorageError.readFailed(reason: "accounts.sqlite: unknown token kind \(kindName)")
                    }
                    return TokenRecord(
                        hash: row["hash"], accountID: row["account_id"], kind: kind,
                        createdAt: Date(storedMilliseconds: row["created_ms"]),
                        expiresAt: Date(storedMilliseconds: row["expires_ms"]), revoked: row["revoked"], email: row["email"])
                }
        } ?? []
    }

    /// Every taxi administrators registered, by id.
    public func storedTaxis() throws -> [StoredTaxi] {
        try read(accountsDatabase, "accounts.sqlite") { db in
            try Row.fetchAll(db, sql: "SELECT id, plate, seats, active, updated_ms FROM taxi ORDER BY id").map { row in
                StoredTaxi(
                    id: TaxiID(row["id"] as String), plate: row["plate"], seats: row["seats"], active: row["active"],
                    updatedAt: Date(storedMilliseconds: row["updated_ms"]))
            }
        } ?? []
    }

    /// Every device administrators registered, by id.
    public func storedDevices() throws -> [StoredDevice] {
        try read(accountsDatabase, "accounts.sqlite") { db in
            try Row.fetchAll(db, sql: "SELECT id, taxi, protocol, secret, retired, updated_ms FROM device ORDER BY id").map { row in
                StoredDevice(
                    id: row["id"], taxi: TaxiID(row["taxi"] as String), wireProtocol: row["protocol"], secret: row["secret"],
                    retired: row["retired"], updatedAt: Date(storedMilliseconds: row["updated_ms"]))
            }
        } ?? []
    }

    /// Every entry of the audit log, oldest first.
    public func auditEntries() throws -> [AuditEntry] {
        try read(accountsDatabase, "accounts.sqlite") { db in
            try Row.fetchAll(db, sql: "SELECT id, at_ms, actor, action, target, detail FROM audit ORDER BY id").map { row in
                AuditEntry(
                    id: row["id"], at: Date(storedMilliseconds: row["at_ms"]), actor: row["actor"], action: row["action"],
                    target: row["target"], detail: row["detail"])
            }
        } ?? []
    }

    /// Every e-mail of the outbox, oldest first.
    public func outbox() throws -> [OutboxEmail] {
        try read(accountsDatabase, "accounts.sqlite") { db in
            try Row.fetchAll(db, sql: "SELECT id, recipient, subject, body, created_ms FROM outbox ORDER BY id").map { row in
                OutboxEmail(
                    id: row["id"], createdAt: Date(storedMilliseconds: row["created_ms"]),
                    message: EmailMessage(to: row["recipient"], subject: row["subject"], body: row["body"]))
            }
        } ?? []
    }

    /// How many entries the dispatch log holds.
    public func dispatchLogEntryCount() throws -> Int {
        try read(dispatch, "dispatch.sqlite") { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM dispatch_log") ?? 0 } ?? 0
    }

    /// Hands the dispatch log's entries to `body` oldest first, in batches
    /// of at most `batchSize`.
    public func forEachDispatchLogBatch(size batchSize: Int, _ body: ([DispatchLogEntry]) throws -> Void) throws {
        _ = try read(dispatch, "dispatch.sqlite") { db in
            var batch: [DispatchLogEntry] = []
            let rows = try Row.fetchCursor(db, sql: "SELECT sequence, payload FROM dispatch_log ORDER BY sequence")
            while let row = try rows.next() {
                batch.append(DispatchLogEntry(sequence: row["sequence"], payload: row["payload"]))
                if batch.count == batchSize {
                    try body(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            }
            if !batch.isEmpty { try body(batch) }
        }
    }

    /// The dispatch engine's newest snapshot, nil when none was written.
    public func dispatchSnapshot() throws -> DispatchLogSnapshot? {
        try read(dispatch, "dispatch.sqlite") { db in
            try Row.fetchOne(db, sql: "SELECT sequence, payload FROM dispatch_snapshot WHERE id = 1").map {
                DispatchLogSnapshot(sequence: $0["sequence"], payload: $0["payload"])
            }
        } ?? nil
    }

    /// Every ride and booking of the history, in the order they were written.
    public func rideHistory() throws -> [RideHistoryRecord] {
        try read(dispatch, "dispatch.sqlite") { db in
            try Data.fetchAll(db, sql: "SELECT record FROM ride_history ORDER BY id")
                .map { try JSONDecoder().decode(RideHistoryRecord.self, from: $0) }
        } ?? []
    }

    /// Every figure of the statistics (a store written before there were
    /// any has none).
    public func hourlyCounts() throws -> [HourlyCount] {
        try read(dispatch, "dispatch.sqlite") { db in
            guard try db.tableExists("hourly_count") else { return [] }
            return try Row.fetchAll(db, sql: "SELECT subject, hour_ms, measure, count FROM hourly_count").map { row in
                HourlyCount(
                    subject: row["subject"], hour: Date(timeIntervalSince1970: Double(row["hour_ms"] as Int64) / 1000),
                    measure: row["measure"], count: row["count"])
            }
        } ?? []
    }

    /// Every notification, oldest first, with whether it was handed over:
    /// the ones filed by recipient and the recent ones not filed yet (a log
    /// written before notifications were filed has only the former).
    public func notifications() throws -> [(notification: StoredNotification, delivered: Bool)] {
        try read(dispatch, "dispatch.sqlite") { db in
            let columns = "sequence, idx, recipient, payload, delivered"
            let recent = try db.tableExists("notification_recent")
                ? " UNION ALL SELECT sequence, idx, recipient, payload, 0 FROM notification_recent" : ""
            return try Row.fetchAll(db, sql: "SELECT \(columns) FROM notification\(recent) ORDER BY sequence, idx")
                .map { row in
                    (StoredNotification(
                        key: NotificationKey(sequence: row["sequence"], index: row["idx"]), recipient: row["recipient"],
                        payload: row["payload"]), row["delivered"])
                }
        } ?? []
    }

    /// Every zone set version, oldest first, with its GeoJSON.
    public func zoneSets() throws -> [(version: ZoneSetVersion, geoJSON: Data)] {
        try read(zones, "zones.sqlite") { db in
            try Row.fetchAll(db, sql: SQLiteZoneSetStore.columns + " ORDER BY z.version").map { row in
                let geoJSON = try Data.fetchOne(
                    db, sql: "SELECT geojson FROM zone_set WHERE version = ?", arguments: [row["version"] as Int]) ?? Data()
                return (try SQLiteZoneSetStore.version(of: row), geoJSON)
            }
        } ?? []
    }

    /// The latest snapshot of the weekly speeds learned from the fleet; nil when none was saved.
    public func learnedSpeeds() throws -> StoredLearnedSpeeds? {
        try read(learnedSpeedsDatabase, "learned-speeds.sqlite") { db in
            guard try db.tableExists("learned_speeds") else { return nil }
            return try Row.fetchOne(db, sql: "SELECT graph, saved_ms, cells FROM learned_speeds WHERE id = 1").map { row in
                StoredLearnedSpeeds(graphFingerprint: row["graph"], savedAt: Date(storedMilliseconds: row["saved_ms"]), cells: row["cells"])
            }
        } ?? nil
    }

    /// Runs `body` on `queue`, nil when its file is absent. SQLite's
    /// failures are reported as ``StorageError/readFailed(reason:)`` naming
    /// the file; anything else `body` throws (a batch's receiver) passes through.
    private func read<T>(_ queue: DatabaseQueue?, _ name: String, _ body: (Database) throws -> T) throws -> T? {
        guard let queue else { return nil }
        do {
            return try queue.read(body)
        } catch let error as DatabaseError {
            throw StorageError.readFailed(reason: "\(directory)/\(name): \(error)")
        }
    }
}
