import Accounts
import ArgumentParser
import Storage

extension Mytaxi.Accounts {
    /// `mytaxi accounts disable NAME`: the account can no longer log in.
    struct Disable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Disable an account: it can no longer log in, and its sessions end.",
            discussion: """
                A running service stops accepting the account's tokens within its session recheck \
                interval (5 s by default). `mytaxi accounts enable` undoes it.

                Exit status: 0 when done, 1 when refused (an unknown account, a store failure), \
                2 when the data directory cannot be opened.
                """)

        @OptionGroup var data: AccountsDataDirectory

        @Argument(help: "The account's username.")
        var username: String

        func run() async throws {
            let service = try data.openService(create: false)
            let account = try await exitingOnAccountError { () async throws(AccountError) in
                try await service.disable(username: username)
            }
            print("disabled account \(account.id): \(account)")
        }
    }
}
