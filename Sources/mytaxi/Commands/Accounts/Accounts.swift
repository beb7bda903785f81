import ArgumentParser

extension Mytaxi {
    /// `mytaxi accounts ...`: accounts from the command line, above all the
    /// first administrator, who then creates the others through the API.
    struct Accounts: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create and list accounts in a data directory (the first administrator, staff, drivers).",
            discussion: """
                The accounts live in DIR/accounts.sqlite, beside the service's other data; these \
                commands may run while `mytaxi serve` uses the same directory.
                """,
            subcommands: [Create.self, List.self])
    }
}
