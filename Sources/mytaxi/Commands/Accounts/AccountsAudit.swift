import Accounts
import ArgumentParser
import FixRecords
import Storage

extension Mytaxi.Accounts {
    /// `mytaxi accounts audit`: what administrators did, newest first.
    struct Audit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the audit log of administrative actions, newest first.",
            discussion: """
                One line per action: `ID TIME ACTOR ACTION TARGET: DETAIL`. The same log is \
                GET /v1/audit for administrators.

                Exit status: 0 on success, 1 when the store fails, 2 when the data directory \
                cannot be opened.
                """)

        @OptionGroup var data: AccountsDataDirectory

        @Option(help: ArgumentHelp("Only the actions on this account (or taxi, or device).", valueName: "NAME"))
        var target: String?

        @Option(help: "The most entries to show.")
        var limit = 100

        func run() async throws {
            let service = try data.openService(create: false)
            let entries = try await exitingOnAccountError { () async throws(AccountError) in
                try await service.auditLog(target: target, limit: max(1, limit))
            }
            for entry in entries {
                let detail = entry.detail.isEmpty ? "" : ": \(entry.detail)"
                print("\(entry.id) \(FixTime.iso8601(entry.at)) \(entry.actor) \(entry.action) \(entry.target)\(detail)")
            }
        }
    }
}
