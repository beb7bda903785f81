import Accounts
import ArgumentParser
import Storage

extension Mytaxi.Accounts {
    /// `mytaxi accounts delete NAME`: erases a staff or driver account's personal data.
    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a staff or driver account: its personal data is erased.",
            discussion: """
                The username becomes `deleted~ID`, and the e-mail address, password and taxi are \
                erased; the row stays so that its id is never reused. A passenger is deleted \
                through the API (`DELETE /v1/accounts/NAME`), which also files its rides under \
                the new name while the service runs.

                Exit status: 0 when done, 1 when refused (an unknown or already deleted account, \
                a passenger, a store failure), 2 when the data directory cannot be opened.
                """)

        @OptionGroup var data: AccountsDataDirectory

        @Argument(help: "The account's username.")
        var username: String

        func run() async throws {
            let service = try data.openService(create: false)
            let account = try await exitingOnAccountError { () async throws(AccountError) in try await service.account(named: username) }
            guard account.role != .passenger else {
                printError("error: \(account.username) is a passenger: delete it with DELETE /v1/accounts/\(account.username), which files its rides anew")
                throw ExitCode(1)
            }
            let (_, deleted) = try await exitingOnAccountError { () async throws(AccountError) in
                try await service.delete(username: username)
            }
            print("deleted account \(deleted.id): now \(deleted.username)")
        }
    }
}
