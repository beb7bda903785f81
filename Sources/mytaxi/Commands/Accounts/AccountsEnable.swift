import Accounts
import ArgumentParser
import Storage

extension Mytaxi.Accounts {
    /// `mytaxi accounts enable NAME`: a disabled account may log in again.
    struct Enable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Enable a disabled account: it may log in again.",
            discussion: """
                Its old sessions stay ended. A deleted account cannot be enabled.

                Exit status: 0 when done, 1 when refused (an unknown or deleted account, a store \
                failure), 2 when the data directory cannot be opened.
                """)

        @OptionGroup var data: AccountsDataDirectory

        @Argument(help: "The account's username.")
        var username: String

        func run() async throws {
            let service = try data.openService(create: false)
            let account = try await exitingOnAccountError { () async throws(AccountError) in
                try await service.enable(username: username)
            }
            print("enabled account \(account.id): \(account)")
        }
    }
}
