import Accounts
import ArgumentParser
import Foundation
import Storage

/// `--data-dir DIR`, shared by the accounts commands: where the account
/// store is, opened the way the service opens it.
struct AccountsDataDirectory: ParsableArguments {
    @Option(name: .customLong("data-dir"), help: ArgumentHelp("The service's data directory.", valueName: "DIR"))
    var dataDir: String

    /// The account service over `DIR/accounts.sqlite`, creating the
    /// directory first when `create` is set; exits 2 with the reason when
    /// the store cannot be opened.
    func openService(create: Bool) throws -> AccountService {
        do {
            if create { try FileManager.default.createDirectory(atPath: dataDir, withIntermediateDirectories: true) }
            return AccountService(store: try SQLiteAccountStore(directory: dataDir))
        } catch {
            printError("error: \(error)")
            throw ExitCode(2)
        }
    }
}
