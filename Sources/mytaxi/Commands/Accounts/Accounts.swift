import ArgumentParser

extension Mytaxi {
    /// `mytaxi accounts ...`: accounts from the command line, above all the
    /// first administrator, who then creates the others through the API.
    struct Accounts: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create and list accounts in a data directory or PostgreSQL (the first administrator, staff, drivers).",
            discussion: """
                The accounts live in DIR/accounts.sqlite, beside the service's other data, or with --database \
                in PostgreSQL, as `mytaxi serve --database` keeps them; these \
                commands may run while `mytaxi serve` uses the same directory.
                """,
            subcommands: [Create.self, List.self])
    }
}
