import Foundation
import Ingest
import Logging
import PostgresStorage
import Storage

/// Every store of the running service, on one backend: SQLite files in
/// the data directory (the default), or the PostgreSQL database of
/// ``ServiceConfiguration/databaseURL``, migrated before anything is read.
struct ServiceStores {
    let archive: any FixArchive
    let accounts: any AccountStore
    let dispatchLog: any DispatchLog
    let zoneSets: any ZoneSetStore
    /// The PostgreSQL connections, nil on SQLite.
    let pool: PostgresPool?
    /// The archive again when it is the SQLite one, whose segments
    /// ``ArchiveCompactionService`` merges; nil on PostgreSQL.
    let compactableArchive: SQLiteFixArchive?
    /// Why the stores cannot take writes now (a failing background move,
    /// PostgreSQL unreachable), nil when all is well: for `/healthz`.
    let problem: @Sendable () -> String?

    /// Opens the stores `configuration` names; `metrics` hears of the
    /// SQLite archive's background moves.
    static func open(_ configuration: ServiceConfiguration, metrics: IngestMetrics, logger: Logger) throws -> ServiceStores {
        guard let databaseURL = configuration.databaseURL else {
            return try openSQLite(configuration.dataDirectory, metrics: metrics, logger: logger)
        }
        let url = try PostgresURL(databaseURL)
        let pool = PostgresPool(url: url)
        let applied = try PostgresSchema.migrate(pool)
        let migrations = applied.isEmpty ? "" : "; applied schema migrations \(applied.map(String.init).joined(separator: ", "))"
        logger.info("fixes, dispatch log, accounts and zone sets on PostgreSQL \(url)\(migrations)")
        return ServiceStores(
            archive: PostgresFixArchive(pool: pool), accounts: PostgresAccountStore(pool: pool),
            dispatchLog: PostgresDispatchLog(pool: pool), zoneSets: PostgresZoneSetStore(pool: pool), pool: pool,
            compactableArchive: nil, problem: { pool.unavailableReason.map { "PostgreSQL is unavailable: \($0)" } })
    }

    private static func openSQLite(_ directory: String, metrics: IngestMetrics, logger: Logger) throws -> ServiceStores {
        let archive = try SQLiteFixArchive(
            directory: directory,
            onMove: { move in metrics.moved(fixCount: move.storedFixes, duration: move.duration) },
            onMoveFailure: { error, inARow in
                metrics.moveFailed()
                // Ten tries a second: log the first failure and then one in a hundred.
                if inARow % 100 == 1 {
                    logger.error(
                        "moving journaled fixes into the store failed (\(inARow) in a row); they stay in the journal: \(error)")
                }
            })
        return ServiceStores(
            archive: archive, accounts: try SQLiteAccountStore(directory: directory),
            dispatchLog: try SQLiteDispatchLog(directory: directory), zoneSets: try SQLiteZoneSetStore(directory: directory),
            pool: nil, compactableArchive: archive, problem: { archive.moveFailure })
    }
}
