import FixRecords
import Foundation
import SQLiteStorage
import Storage

/// Moves an embedded store (the SQLite files of a data directory) into a
/// PostgreSQL database (`mytaxi db import-sqlite`), so that a city that
/// started on one machine can grow onto a server without losing its fixes,
/// dispatch log, accounts, zone versions or the speeds learned from its fleet.
///
/// All of it goes in one transaction: a failed import (the server lost, a
/// record the schema refuses) leaves the database as it was. The database
/// must hold nothing yet; an import into a database the service already
/// uses would mix two histories (two dispatch logs, two accounts with one
/// id), so it is refused before anything is written. Because a failure
/// leaves nothing behind, running the import again after one is safe.
/// Ids are kept (accounts, tokens' accounts, outbox e-mails, zone set
/// versions, dispatch sequence numbers), and the database's counters
/// continue after them.
public enum SQLiteImport {
    /// Fixes per COPY batch.
    static let fixBatchSize = 50_000

    /// Imports everything `reader` holds into `pool`'s database, migrating
    /// its schema first; `progress` hears a line after every batch of fixes
    /// and every other store.
    /// - Returns: what was imported.
    /// - Throws: ``SQLiteImportError``.
    public static func run(
        from reader: SQLiteStoreReader, into pool: PostgresPool, progress: (String) -> Void
    ) throws(SQLiteImportError) -> SQLiteImportSummary {
        do {
            try PostgresSchema.migrate(pool)
        } catch {
            throw .database(error)
        }
        do {
            return try pool.withConnection { connection in
                try connection.transaction { connection in
                    let held = try contents(on: connection)
                    guard held.isEmpty else { throw SQLiteImportError.targetNotEmpty(server: pool.url.server, holds: held) }
                    var summary = SQLiteImportSummary()
                    try importAccounts(reader, on: connection, into: &summary)
                    progress(
                        "accounts: \(summary.accounts), tokens: \(summary.tokens), outbox e-mails: \(summary.outboxEmails), "
                            + "audit entries: \(summary.auditEntries), taxis: \(summary.taxis), devices: \(summary.devices)")
                    try importZoneSets(reader, on: connection, into: &summary)
                    progress("zone set versions: \(summary.zoneSetVersions)")
                    try importDispatchLog(reader, on: connection, into: &summary)
                    progress("dispatch log entries: \(summary.dispatchLogEntries), rides: \(summary.rides), notifications: \(summary.notifications)")
                    try importLearnedSpeeds(reader, on: connection, into: &summary)
                    progress("learned speeds: \(summary.learnedSpeeds ? "the latest snapshot" : "none")")
                    try importFixes(reader, on: connection, into: &summary, progress: progress)
                    progress("committing")
                    return summary
                }
            }
        } catch let error as SQLiteImportError {
            throw error
        } catch let error as StorageError {
            // The reader's failures are reads; the pool's, the server's.
            if case .readFailed = error { throw .unreadable(error) }
            throw .database(error)
        } catch let error as PostgresError {
            if error.connectionLost {
                throw .database(.serverUnavailable(server: pool.url.server, reason: "the connection was lost (\(error.message))"))
            }
            throw .refused(error.message)
        } catch {
            throw .refused("\(error)")
        }
    }

    /// What the database holds already, as `N things` per non-empty table.
    private static func contents(on connection: PostgresConnection) throws -> [String] {
        let tables = [
            ("archived_fixes", "fixes"), ("dispatch_log", "dispatch log entries"), ("dispatch_snapshot", "dispatch snapshots"),
            ("ride_history", "rides"), ("notification", "notifications"), ("hourly_count", "figures of the statistics"), ("account", "accounts"), ("token", "tokens"),
            ("outbox", "outbox e-mails"), ("audit", "audit entries"), ("taxi", "taxis"), ("device", "devices"), ("zone_set", "zone set versions"), ("learned_speeds", "learned speed snapshots"),
        ]
        return try tables.compactMap { table, what in
            // Table names from this list only, never from a caller.
            let count = try connection.query("SELECT count(*) AS n FROM \(table)").integer(0, "n")
            return count > 0 ? "\(count) \(what)" : nil
        }
    }

    private static func importAccounts(
        _ reader: SQLiteStoreReader, on connection: PostgresConnection, into summary: inout SQLiteImportSummary
    ) throws {
        for account in try reader.accounts() {
            try connection.query(
                """
                INSERT INTO account (id, username, role, email, password_hash, taxi, email_confirmed, disabled, created_ms, deleted)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
                """,
                [.integer(account.id), .text(account.username), .text(account.role.rawValue), .optional(account.email),
                 .text(account.passwordHash), .optional(account.taxi?.text), .boolean(account.emailConfirmed),
                 .boolean(account.disabled), .integer(account.createdAt.storedMilliseconds), .boolean(account.deleted)])
            summary.accounts += 1
        }
        for token in try reader.tokens() {
            try connection.query(
                "INSERT INTO token (hash, account_id, kind, created_ms, expires_ms, revoked, email) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                [.bytes(token.hash), .integer(token.accountID), .text(token.kind.rawValue),
                 .integer(token.createdAt.storedMilliseconds), .integer(token.expiresAt.storedMilliseconds),
                 .boolean(token.revoked), .optional(token.email)])
            summary.tokens += 1
        }
        for email in try reader.outbox() {
            try connection.query(
                "INSERT INTO outbox (id, recipient, subject, body, created_ms) VALUES ($1, $2, $3, $4, $5)",
                [.integer(email.id), .text(email.message.to), .text(email.message.subject), .text(email.message.body),
                 .integer(email.createdAt.storedMilliseconds)])
            summary.outboxEmails += 1
        }
        for entry in try reader.auditEntries() {
            try connection.query(
                "INSERT INTO audit (id, at_ms, actor, action, target, detail) VALUES ($1, $2, $3, $4, $5, $6)",
                [.integer(entry.id), .integer(entry.at.storedMilliseconds), .text(entry.actor), .text(entry.action),
                 .text(entry.target), .text(entry.detail)])
            summary.auditEntries += 1
        }
        for taxi in try reader.storedTaxis() {
            try connection.query(
                "INSERT INTO taxi (id, plate, seats, active, updated_ms) VALUES ($1, $2, $3, $4, $5)",
                [.text(taxi.id.text), .optional(taxi.plate), .integer(Int64(taxi.seats)), .boolean(taxi.active),
                 .integer(taxi.updatedAt.storedMilliseconds)])
            summary.taxis += 1
        }
        for device in try reader.storedDevices() {
            try connection.query(
                "INSERT INTO device (id, taxi, protocol, secret, retired, updated_ms) VALUES ($1, $2, $3, $4, $5, $6)",
                [.text(device.id), .text(device.taxi.text), .optional(device.wireProtocol), .optional(device.secret),
                 .boolean(device.retired), .integer(device.updatedAt.storedMilliseconds)])
            summary.devices += 1
        }
        try connection.query("UPDATE register_version SET version = version + 1")
        try continueCounter(of: "account", column: "id", on: connection)
        try continueCounter(of: "outbox", column: "id", on: connection)
        try continueCounter(of: "audit", column: "id", on: connection)
    }

    private static func importZoneSets(
        _ reader: SQLiteStoreReader, on connection: PostgresConnection, into summary: inout SQLiteImportSummary
    ) throws {
        for (version, geoJSON) in try reader.zoneSets() {
            try connection.query(
                """
                INSERT INTO zone_set (version, uploaded_by, uploaded_ms, zone_count, comment, geojson)
                VALUES ($1, $2, $3, $4, $5, $6)
                """,
                [.integer(Int64(version.version)), .text(version.uploadedBy), .integer(version.uploadedAt.storedMilliseconds),
                 .integer(Int64(version.zoneCount)), .optional(version.comment), .bytes(geoJSON)])
            if PostgresZoneSetStore.isFeatureCollection(geoJSON) {
                try PostgresZoneSetStore.insertZones(of: Int64(version.version), geoJSON: geoJSON, on: connection)
            }
            if let activation = version.activation {
                try connection.query(
                    "INSERT INTO active_zone_set (id, version, activated_by, activated_ms) VALUES (1, $1, $2, $3)",
                    [.integer(Int64(version.version)), .text(activation.by), .integer(activation.at.storedMilliseconds)])
            }
            summary.zoneSetVersions += 1
        }
        try continueCounter(of: "zone_set", column: "version", on: connection)
    }

    private static func importDispatchLog(
        _ reader: SQLiteStoreReader, on connection: PostgresConnection, into summary: inout SQLiteImportSummary
    ) throws {
        try reader.forEachDispatchLogBatch(size: 10_000) { entries in
            for entry in entries {
                try connection.query(
                    "INSERT INTO dispatch_log (sequence, payload) VALUES ($1, $2)", [.integer(entry.sequence), .bytes(entry.payload)])
            }
            summary.dispatchLogEntries += entries.count
        }
        if let snapshot = try reader.dispatchSnapshot() {
            try connection.query(
                "INSERT INTO dispatch_snapshot (id, sequence, payload) VALUES (1, $1, $2)",
                [.integer(snapshot.sequence), .bytes(snapshot.payload)])
            summary.dispatchSnapshot = true
        }
        let encoder = JSONEncoder()
        for record in try reader.rideHistory() {
            try connection.query(
                "INSERT INTO ride_history (passenger, taxi, ended_at, record, ride) VALUES ($1, $2, to_timestamp($3::int8 / 1000.0), $4, $5)",
                [.text(record.passenger), .optional(record.taxi), .integer(record.endedAt.storedMilliseconds),
                 .bytes(try encoder.encode(record)), .optional(record.ride)])
            summary.rides += 1
        }
        for (notification, delivered) in try reader.notifications() {
            try connection.query(
                "INSERT INTO notification (sequence, idx, recipient, payload, delivered) VALUES ($1, $2, $3, $4, $5)",
                [.integer(notification.key.sequence), .integer(Int64(notification.key.index)), .text(notification.recipient),
                 .bytes(notification.payload), .boolean(delivered)])
            summary.notifications += 1
        }
        for count in try reader.hourlyCounts() {
            try connection.query(
                "INSERT INTO hourly_count (subject, hour, measure, count) VALUES ($1, to_timestamp($2::int8 / 1000.0), $3, $4)",
                [.text(count.subject), .integer(count.hour.storedMilliseconds), .text(count.measure), .integer(count.count)])
            summary.statistics += 1
        }
    }

    private static func importLearnedSpeeds(
        _ reader: SQLiteStoreReader, on connection: PostgresConnection, into summary: inout SQLiteImportSummary
    ) throws {
        guard let learned = try reader.learnedSpeeds() else { return }
        try connection.query(
            "INSERT INTO learned_speeds (id, graph, saved_ms, cells) VALUES (1, $1, $2, $3)",
            [.text(learned.graphFingerprint), .integer(learned.savedAt.storedMilliseconds), .bytes(learned.cells)])
        summary.learnedSpeeds = true
    }

    /// Copies the fixes in batches by binary COPY, as the archive's group
    /// commit does, creating the day partitions they need; a fix found in
    /// both the journal and the store is stored once.
    private static func importFixes(
        _ reader: SQLiteStoreReader, on connection: PostgresConnection, into summary: inout SQLiteImportSummary,
        progress: (String) -> Void
    ) throws {
        let rows = try reader.fixRowCount()
        var knownDays = Set<Int64>()
        var read = 0
        try PostgresFixArchive.createBatchTable(on: connection)
        try reader.forEachFixBatch(size: fixBatchSize) { fixes in
            let days = Set(fixes.map { PostgresFixArchive.day(of: $0.time) }).subtracting(knownDays)
            if !days.isEmpty {
                try PostgresFixArchive.createPartitions(days: days, on: connection)
                knownDays.formUnion(days)
            }
            try PostgresFixArchive.copy(fixes, on: connection)
            // The staging table empties at commit, and this is one long transaction.
            try connection.execute("TRUNCATE fix_batch")
            read += fixes.count
            progress("fixes: \(read) of \(rows) read (\(rows > 0 ? read * 100 / rows : 100) %)")
        }
        summary.fixes = Int(try connection.query("SELECT count(*) AS n FROM fixes").integer(0, "n"))
    }

    /// Sets the counter behind `table.column` past the largest value imported.
    private static func continueCounter(of table: String, column: String, on connection: PostgresConnection) throws {
        // Table and column names from this file only, never from a caller.
        try connection.query(
            "SELECT setval(pg_get_serial_sequence('\(table)', '\(column)'), coalesce(max(\(column)), 0) + 1, false) FROM \(table)")
    }
}

/// What an import moved, per store.
public struct SQLiteImportSummary: Sendable, Equatable, CustomStringConvertible {
    /// Distinct fixes in the archive.
    public var fixes = 0
    /// Entries of the dispatch log.
    public var dispatchLogEntries = 0
    /// Whether the dispatch engine's snapshot was there.
    public var dispatchSnapshot = false
    /// Rides and bookings of the history.
    public var rides = 0
    /// Notifications, delivered or not.
    public var notifications = 0
    /// Figures of the statistics (per subject, hour and measure).
    public var statistics = 0
    /// Accounts.
    public var accounts = 0
    /// Tokens, revoked and expired ones too.
    public var tokens = 0
    /// E-mails of the outbox.
    public var outboxEmails = 0
    /// Entries of the audit log.
    public var auditEntries = 0
    /// Taxis and devices administrators registered.
    public var taxis = 0, devices = 0
    /// Zone set versions.
    public var zoneSetVersions = 0
    /// Whether a snapshot of the speeds learned from the fleet was there.
    public var learnedSpeeds = false

    /// One line: every count.
    public var description: String {
        "\(fixes) fixes, \(dispatchLogEntries) dispatch log entries (\(dispatchSnapshot ? "with" : "no") snapshot), "
            + "\(rides) rides, \(notifications) notifications, \(statistics) figures of the statistics, \(accounts) accounts, \(tokens) tokens, "
            + "\(outboxEmails) outbox e-mails, \(auditEntries) audit entries, \(taxis) taxis and \(devices) devices registered, \(zoneSetVersions) zone set versions, \(learnedSpeeds ? "with" : "no") learned speeds"
    }
}

/// Why an import did not happen; in every case nothing was imported.
public enum SQLiteImportError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The database at `server` already holds data (`holds`: e.g. `12 fixes`).
    case targetNotEmpty(server: String, holds: [String])
    /// The embedded store could not be read.
    case unreadable(StorageError)
    /// The database cannot be used (unreachable, login refused, lost).
    case database(StorageError)
    /// PostgreSQL refused a record or a statement; its message.
    case refused(String)

    public var description: String {
        switch self {
        case .targetNotEmpty(let server, let holds):
            "the database \(server) is not empty (it holds \(holds.joined(separator: ", "))); nothing was imported: "
                + "import into a new database (createdb), so that two histories are never mixed"
        case .unreadable(let error):
            "the embedded store could not be read (\(error)); nothing was imported"
        case .database(let error):
            "\(error); nothing was imported"
        case .refused(let message):
            "PostgreSQL refused the import (\(message)); nothing was imported (the transaction was rolled back)"
        }
    }
}
