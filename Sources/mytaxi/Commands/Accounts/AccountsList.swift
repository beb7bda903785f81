import Accounts
import ArgumentParser
import Storage

extension Mytaxi.Accounts {
    /// `mytaxi accounts list`: the accounts of a data directory.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the accounts, oldest first: id, username, role, e-mail, taxi, flags.",
            discussion: """
                Exit status: 0 on success (one line per account, `ID: USERNAME (ROLE), ...`), \
                1 when the store fails, 2 when the data directory cannot be opened.
                """)

        @OptionGroup var data: AccountsDataDirectory

        @Option(help: "Only the accounts with this role.")
        var role: Role?

        func run() async throws {
            let service = try data.openService(create: false)
            do {
                for account in try await service.list(role: role) { print("\(account.id): \(account)") }
            } catch {
                printError("error: \(error)")
                throw ExitCode(1)
            }
        }
    }
}
