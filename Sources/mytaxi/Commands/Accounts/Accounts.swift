import ArgumentParser

extension Mytaxi {
    /// `mytaxi accounts ...`: accounts from the command line, above all the
    /// first administrator, who then creates the others through the API.
    struct Accounts: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create, list, disable, enable, delete accounts and reset passwords, in a data directory or PostgreSQL.",
            discussion: """
                The accounts live in DIR/accounts.sqlite, beside the service's other data, or with --database \
                in PostgreSQL, as `mytaxi serve --database` keeps them; these \
                commands may run while `mytaxi serve` uses the same directory. What they change is \
                written to the audit log (actor `console`), as the administrators' API calls are.
                """,
            subcommands: [Create.self, List.self, Disable.self, Enable.self, ResetPassword.self, Delete.self, Audit.self])
    }
}
