import Accounts
import Foundation
import ServiceClock
import Storage
import Testing

/// An account service over a store, with a manual clock and the cheapest
/// bcrypt cost (4), and the steps most tests start from.
struct AccountsHarness {
    static let start = Date(timeIntervalSince1970: 1_790_000_000)
    static let password = "analytical-1"

    let clock: ManualClock
    let store: any AccountStore
    let service: AccountService

    init(store: any AccountStore = InMemoryAccountStore(), clock: ManualClock = ManualClock(now: start), settings: AccountSettings = AccountSettings(bcryptCost: 4)) {
        self.clock = clock
        self.store = store
        service = AccountService(store: store, clock: clock, settings: settings)
    }

    /// The same store and clock, with a service made anew (a restart of the service alone).
    func restarted(store: any AccountStore) -> AccountsHarness {
        AccountsHarness(store: store, clock: clock)
    }

    /// The token of the newest confirmation e-mail to `email`.
    func confirmationToken(for email: String) async throws -> String {
        let mail = try #require(try await service.outbox(limit: 100).first { $0.message.to == email }, "no e-mail to \(email)")
        let lines = mail.message.body.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        return try #require(lines.first { $0.count == 43 && !$0.contains(" ") }, "no token in \(mail.message.body)")
    }

    /// A passenger registered with ``password`` and confirmed.
    @discardableResult
    func confirmedPassenger(_ username: String) async throws -> AccountRecord {
        let email = "\(username.lowercased())@example.org"
        try await service.registerPassenger(username: username, email: email, password: Self.password)
        return try await service.confirmEmail(token: try await confirmationToken(for: email))
    }
}
