import Foundation
import Ingest
import Logging
import PostgresStorage
import SQLiteStorage
import Storage

/// Every store of the running service, on one backend: SQLite files in
/// the data directory (the default), or the PostgreSQL database of
/// ``ServiceConfiguration/databaseURL``, migrated before anything is read;
/// or in memory, for tests. The stores' background work reports to
/// ``metrics``, which the rest of the service reports to too.
public struct ServiceStores: Sendable {
    public let archive: any FixArchive
    public let accounts: any AccountStore
    /// The taxis and devices administrators manage (beside the accounts).
    public let register: any TaxiRegisterStore
    public let dispatchLog: any DispatchLog
    public let zoneSets: any ZoneSetStore
    /// The speeds learned from the fleet, saved now and then and read at start.
    public let learnedSpeeds: any LearnedSpeedStore
    /// The API's answers to requests with an `Idempotency-Key`, kept a day.
    public let idempotentAnswers: any IdempotentAnswerStore
    /// The metrics `/metrics` shows.
    public let metrics: ServiceMetrics
    /// Which node decides dispatch when several share the stores: on
    /// PostgreSQL; nil on SQLite, which one node alone uses. It has a
    /// connection of its own, so that renewing the lease never waits behind
    /// the service's other statements: a busy node (ingest, a burst of
    /// requests, a long read) would otherwise let its lease run out and
    /// hand dispatch from node to node, each takeover a restore.
    public let dispatchOwnership: (any DispatchOwnership)?
    /// The PostgreSQL connections, nil on SQLite.
    let pool: PostgresPool?
    /// The archive again when it is the SQLite one, whose segments
    /// ``ArchiveCompactionService`` merges; nil on PostgreSQL.
    let compactableArchive: SQLiteFixArchive?
    /// Why the stores cannot take writes now (a failing background move,
    /// PostgreSQL unreachable), nil when all is well: for `/healthz`, which
    /// anyone may read, so it says what is wrong and leaves the error's
    /// text (hosts, paths, SQL) to the log.
    let problem: @Sendable () -> String?

    /// What `/healthz` says while moves from the journal into the store fail.
    static let moveFailing = "moving journaled fixes into the store fails (the service's log says why)"

    /// Opens the stores `configuration` names; `metrics` hears of the
    /// archive's background moves from its journal into its store.
    public static func open(_ configuration: ServiceConfiguration, metrics: ServiceMetrics = ServiceMetrics(), logger: Logger) throws -> ServiceStores {
        guard let databaseURL = configuration.databaseURL else {
            guard let directory = configuration.dataDirectory else {
                throw ServiceStartError(
                    file: "data directory", reason: "none given; the embedded SQLite stores need one (--data-dir DIR), or give --database URL")
            }
            return try openSQLite(directory, metrics: metrics, logger: logger)
        }
        let url = try PostgresURL(databaseURL)
        let pool = PostgresPool(url: url)
        let applied = try PostgresSchema.migrate(pool)
        let migrations = applied.isEmpty ? "" : "; applied schema migrations \(applied.map(String.init).joined(separator: ", "))"
        logger.info("fixes, dispatch log, accounts, zone sets, learned speeds and idempotent answers on PostgreSQL \(url)\(migrations)")
        let archive = PostgresFixArchive(
            pool: pool, onMove: { metrics.ingest.moved(fixCount: $0.storedFixes, duration: $0.duration) },
            onMoveFailure: moveFailureReporter(metrics: metrics.ingest, logger: logger))
        let accounts = PostgresAccountStore(pool: pool)
        return ServiceStores(
            archive: archive, accounts: accounts, register: accounts,
            dispatchLog: PostgresDispatchLog(pool: pool), zoneSets: PostgresZoneSetStore(pool: pool),
            learnedSpeeds: PostgresLearnedSpeedStore(pool: pool), idempotentAnswers: PostgresIdempotentAnswerStore(pool: pool), metrics: metrics,
            dispatchOwnership: PostgresDispatchOwnership(pool: PostgresPool(url: url, maximumConnections: 1)), pool: pool,
            compactableArchive: nil,
            problem: {
                if pool.unavailableReason != nil { return "PostgreSQL is unavailable (the service's log says why)" }
                return archive.moveFailure.map { _ in Self.moveFailing }
            })
    }

    private static func openSQLite(_ directory: String, metrics: ServiceMetrics, logger: Logger) throws -> ServiceStores {
        let archive = try SQLiteFixArchive(
            directory: directory, onMove: { metrics.ingest.moved(fixCount: $0.storedFixes, duration: $0.duration) },
            onMoveFailure: moveFailureReporter(metrics: metrics.ingest, logger: logger))
        let accounts = try SQLiteAccountStore(directory: directory)
        return ServiceStores(
            archive: archive, accounts: accounts, register: accounts,
            dispatchLog: try SQLiteDispatchLog(directory: directory), zoneSets: try SQLiteZoneSetStore(directory: directory),
            learnedSpeeds: try SQLiteLearnedSpeedStore(directory: directory),
            idempotentAnswers: try SQLiteIdempotentAnswerStore(directory: directory), metrics: metrics,
            dispatchOwnership: nil, pool: nil, compactableArchive: archive, problem: { archive.moveFailure.map { _ in Self.moveFailing } })
    }

    /// Stores that keep nothing once the process ends, for tests: `archive`
    /// (in memory unless given) and in-memory accounts, dispatch log, zone
    /// sets, learned speeds and idempotent answers.
    public static func inMemory(archive: any FixArchive = InMemoryFixArchive()) -> ServiceStores {
        ServiceStores(
            archive: archive, accounts: InMemoryAccountStore(), register: InMemoryTaxiRegisterStore(), dispatchLog: InMemoryDispatchLog(),
            zoneSets: InMemoryZoneSetStore(), learnedSpeeds: InMemoryLearnedSpeedStore(),
            idempotentAnswers: InMemoryIdempotentAnswerStore(), metrics: ServiceMetrics(),
            dispatchOwnership: nil, pool: nil, compactableArchive: nil, problem: { nil })
    }

    /// Counts every failed move of the archive's journal and logs the first
    /// of a run and then one in a hundred (moves are tried several times a
    /// second).
    private static func moveFailureReporter(
        metrics: IngestMetrics, logger: Logger
    ) -> @Sendable (_ error: any Error, _ inARow: Int) -> Void {
        { error, inARow in
            metrics.moveFailed()
            if inARow % 100 == 1 {
                logger.error("moving journaled fixes into the store failed (\(inARow) in a row); they stay in the journal: \(error)")
            }
        }
    }
}
