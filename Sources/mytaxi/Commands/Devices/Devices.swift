import ArgumentParser

extension Mytaxi {
    /// `mytaxi devices ...`: the taxis and tracking devices administrators keep in the store.
    struct Devices: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import a devices file into the store, and list the taxis and devices kept there.",
            discussion: """
                Taxis and devices kept in the store (DIR/accounts.sqlite, or PostgreSQL with \\
                --database) are laid over the service's devices file (`serve --devices`) and take \\
                effect on a running service within 5 s, without SIGHUP; administrators manage them \\
                with /v1/taxis and /v1/devices. Every import is written to the audit log.
                """,
            subcommands: [Import.self, List.self])
    }
}
