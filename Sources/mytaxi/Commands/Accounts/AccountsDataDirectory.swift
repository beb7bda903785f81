import Accounts
import ArgumentParser
import Foundation
import PostgresStorage
import ServeConfig
import SQLiteStorage
import Storage

/// `--data-dir DIR` or `--database URL`, shared by the accounts commands:
/// where the account store is, opened the way the service opens it
/// (PostgreSQL when a database is named, by flag or `MYTAXI_DATABASE_URL`).
struct AccountsDataDirectory: ParsableArguments {
    @Option(name: .customLong("data-dir"), help: ArgumentHelp("The service's data directory.", valueName: "DIR"))
    var dataDir: String?

    @OptionGroup var database: DatabaseURLOption

    func validate() throws {
        guard dataDir != nil || database.database != nil || DatabaseEnvironment.url != nil else {
            throw ValidationError("missing --data-dir DIR (or --database postgres://..., or $\(DatabaseEnvironment.variable))")
        }
    }

    /// The account service over `DIR/accounts.sqlite` (creating the
    /// directory first when `create` is set), or over PostgreSQL (migrated
    /// first); exits 2 with the reason when the store cannot be opened.
    func openService(create: Bool) throws -> AccountService {
        try openStores(create: create).accounts
    }

    /// The account service and the taxis and devices beside it, opened as ``openService(create:)`` does.
    func openStores(create: Bool) throws -> (accounts: AccountService, register: any TaxiRegisterStore) {
        do {
            if database.database != nil || DatabaseEnvironment.url != nil {
                let pool = PostgresPool(url: try database.url(), maximumConnections: 2)
                try PostgresSchema.migrate(pool)
                let store = PostgresAccountStore(pool: pool)
                return (AccountService(store: store), store)
            }
            guard let dataDir else { throw ValidationError("missing --data-dir DIR") }
            if create { try FileManager.default.createDirectory(atPath: dataDir, withIntermediateDirectories: true) }
            let store = try SQLiteAccountStore(directory: dataDir)
            return (AccountService(store: store), store)
        } catch {
            printError("error: \(error)")
            throw ExitCode(2)
        }
    }
}
