import Accounts
import ArgumentParser
import Storage

extension Mytaxi.Accounts {
    /// `mytaxi accounts list`: the accounts of a data directory, or those an administrator looks for.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the accounts, oldest first: id, username, role, e-mail, taxi, state.",
            discussion: """
                Every condition given must hold: --role, --state, and --search (part of the \
                username or e-mail address, any case).

                Exit status: 0 on success (one line per account, `ID: USERNAME (ROLE), ..., STATE`), \
                1 when the store fails, 2 when the data directory cannot be opened.
                """)

        @OptionGroup var data: AccountsDataDirectory

        @Option(help: "Only the accounts with this role.")
        var role: Role?

        @Option(help: "Only the accounts in this state.")
        var state: AccountState?

        @Option(help: ArgumentHelp("Only the accounts whose username or e-mail address contains TEXT (any case).", valueName: "TEXT"))
        var search: String?

        func run() async throws {
            let service = try data.openService(create: false)
            let query = AccountQuery(role: role, state: state, text: search)
            for account in try await exitingOnAccountError({ () async throws(AccountError) in try await service.search(query) }) {
                print("\(account.id): \(account), \(account.state)")
            }
        }
    }
}
