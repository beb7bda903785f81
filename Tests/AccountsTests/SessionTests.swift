import Accounts
import Foundation
import SQLiteStorage
import ServiceClock
import Storage
import TestSupport
import Testing

/// SPEC A2: a login returns a bearer token that expires and can be revoked
/// (logout, a disabled account); the token alone is never stored.
@Suite(.timeLimit(.minutes(20)), .tags(.realTimeWaits)) struct SessionTests {
    @Test func aLoginIssuesA256BitTokenThatAuthenticatesItsAccount() async throws {
        let harness = AccountsHarness()
        let ada = try await harness.confirmedPassenger("ada")
        let session = try await harness.service.login(username: "ada", password: AccountsHarness.password)
        #expect(session.token.count == 43, "256 bits in base64url without padding")
        #expect(Base64URL.decode(session.token)?.count == 32)
        #expect(session.account == ada)
        #expect(session.expiresAt == AccountsHarness.start.addingTimeInterval(12 * 3600))
        #expect(try await harness.service.authenticate(bearer: session.token) == ada)
        let again = try await harness.service.login(username: "ada", password: AccountsHarness.password)
        #expect(again.token != session.token, "every login gets a token of its own")
    }

    @Test func theUsernameOfALoginIsCaseInsensitive() async throws {
        let harness = AccountsHarness()
        try await harness.confirmedPassenger("Ada")
        #expect(try await harness.service.login(username: "ADA", password: AccountsHarness.password).account.username == "Ada")
    }

    /// Nobody learns from the answer which usernames exist.
    @Test func anUnknownUserAndAWrongPasswordGetTheSameError() async throws {
        let harness = AccountsHarness()
        try await harness.confirmedPassenger("ada")
        var errors: [AccountError] = []
        for (username, password) in [("ada", "analytical-2"), ("nobody", AccountsHarness.password), ("no body!", "x")] {
            do {
                _ = try await harness.service.login(username: username, password: password)
            } catch {
                errors.append(error)
            }
        }
        #expect(errors == [.badCredentials, .badCredentials, .badCredentials])
    }

    /// Nor from its time: an unknown username costs a bcrypt check too (against a decoy hash).
    /// Without it an unknown name would answer some thousand times faster; the two are
    /// measured in turns, so that a busy machine slows both alike, with a wide margin.
    @Test func anUnknownUserTakesAsLongAsAWrongPassword() async throws {
        let harness = AccountsHarness(settings: AccountSettings(bcryptCost: 9))
        try await harness.service.createAccount(role: .dispatcher, username: "desk", password: AccountsHarness.password)
        var fastest: [String: Duration] = [:]
        for _ in 0..<5 {
            for username in ["desk", "nobody"] {
                let started = ContinuousClock.now
                _ = try? await harness.service.login(username: username, password: "analytical-2")
                fastest[username] = min(fastest[username] ?? .seconds(60), ContinuousClock.now - started)
            }
        }
        let (wrongPassword, unknownUser) = (try #require(fastest["desk"]), try #require(fastest["nobody"]))
        #expect(unknownUser > wrongPassword / 10, "unknown user \(unknownUser), wrong password \(wrongPassword)")
    }

    /// A token works until its 12 hours are over, by the service's clock.
    @Test func anExpiredTokenIsRefused() async throws {
        let harness = AccountsHarness()
        let ada = try await harness.confirmedPassenger("ada")
        let session = try await harness.service.login(username: "ada", password: AccountsHarness.password)
        harness.clock.advance(by: .seconds(12 * 3600 - 1))
        #expect(try await harness.service.authenticate(bearer: session.token) == ada)
        harness.clock.advance(by: .seconds(1))
        #expect(try await harness.service.authenticate(bearer: session.token) == nil)
    }

    @Test func theSessionLifetimeIsConfigurable() async throws {
        let harness = AccountsHarness(settings: AccountSettings(bcryptCost: 4, sessionLifetime: .seconds(60)))
        try await harness.service.createAccount(role: .planner, username: "plan", password: AccountsHarness.password)
        let session = try await harness.service.login(username: "plan", password: AccountsHarness.password)
        #expect(session.expiresAt == AccountsHarness.start.addingTimeInterval(60))
        harness.clock.advance(by: .seconds(60))
        #expect(try await harness.service.authenticate(bearer: session.token) == nil)
    }

    @Test func logoutRevokesTheTokenAndNoOther() async throws {
        let harness = AccountsHarness()
        try await harness.confirmedPassenger("ada")
        let phone = try await harness.service.login(username: "ada", password: AccountsHarness.password)
        let laptop = try await harness.service.login(username: "ada", password: AccountsHarness.password)
        #expect(try await harness.service.authenticate(bearer: phone.token) != nil, "recognised, so remembered")
        #expect(try await harness.service.logout(token: phone.token))
        #expect(try await harness.service.authenticate(bearer: phone.token) == nil)
        #expect(try await harness.service.authenticate(bearer: laptop.token) != nil)
        #expect(try await !harness.service.logout(token: phone.token), "a second logout changes nothing")
        #expect(try await !harness.service.logout(token: "not-a-token"))
    }

    /// A disabled account's tokens stop working at once, and it cannot log in again.
    @Test func disablingAnAccountRevokesItsTokensAtOnce() async throws {
        let harness = AccountsHarness()
        try await harness.service.createAccount(role: .driver, username: "T-17", password: AccountsHarness.password)
        let session = try await harness.service.login(username: "T-17", password: AccountsHarness.password)
        let other = try await harness.service.login(username: "T-17", password: AccountsHarness.password)
        #expect(try await harness.service.authenticate(bearer: session.token) != nil, "recognised, so remembered")
        let disabled = try await harness.service.disable(username: "t-17")
        #expect(disabled.disabled)
        #expect(try await harness.service.authenticate(bearer: session.token) == nil)
        #expect(try await harness.service.authenticate(bearer: other.token) == nil)
        await #expect(throws: AccountError.disabled) {
            try await harness.service.login(username: "T-17", password: AccountsHarness.password)
        }
        await #expect(throws: AccountError.badCredentials, "a wrong password says nothing about the account") {
            try await harness.service.login(username: "T-17", password: "analytical-2")
        }
    }

    /// A second service sharing the store (another instance) remembers the
    /// sessions it recognised for ``AccountSettings/sessionRecheckInterval``,
    /// then reads the store again and sees what the first one revoked.
    @Test func anotherServiceSharingTheStoreSeesARevocationWithinTheRecheckInterval() async throws {
        let harness = AccountsHarness()
        try await harness.confirmedPassenger("ada")
        let other = AccountService(
            store: harness.store, clock: harness.clock,
            settings: AccountSettings(bcryptCost: 4, sessionRecheckInterval: .seconds(5)))
        let session = try await harness.service.login(username: "ada", password: AccountsHarness.password)
        #expect(try await other.authenticate(bearer: session.token) != nil)
        #expect(try await harness.service.logout(token: session.token))
        harness.clock.advance(by: .seconds(4))
        #expect(try await other.authenticate(bearer: session.token) != nil, "remembered for 5 s")
        harness.clock.advance(by: .seconds(1))
        #expect(try await other.authenticate(bearer: session.token) == nil)
        #expect(try await harness.service.authenticate(bearer: session.token) == nil)
    }

    @Test(arguments: ["", "Bearer", String(repeating: "A", count: 43), String(repeating: "x", count: 100_000)])
    func aBearerThatIsNoIssuedTokenIsNil(bearer: String) async throws {
        let harness = AccountsHarness()
        try await harness.confirmedPassenger("ada")
        _ = try await harness.service.login(username: "ada", password: AccountsHarness.password)
        #expect(try await harness.service.authenticate(bearer: bearer) == nil)
    }

    @Test func expiredTokensArePurged() async throws {
        let harness = AccountsHarness()
        try await harness.confirmedPassenger("ada")
        let old = try await harness.service.login(username: "ada", password: AccountsHarness.password)
        harness.clock.advance(by: .seconds(12 * 3600 + 1))
        let fresh = try await harness.service.login(username: "ada", password: AccountsHarness.password)
        let purged = try await harness.service.purgeExpired()
        #expect(purged.tokens == 1, "the used confirmation token is not expired yet; the old session is")
        #expect(purged.accounts == 0, "ada confirmed her address")
        #expect(try await harness.service.authenticate(bearer: old.token) == nil)
        #expect(try await harness.service.authenticate(bearer: fresh.token) != nil)
    }

    /// Accounts and tokens live in the store: a restarted service over the reopened SQLite store knows them.
    @Test func accountsAndTokensSurviveARestart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mytaxi-accounts-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let before = AccountsHarness(store: try SQLiteAccountStore(directory: directory))
        let ada = try await before.confirmedPassenger("ada")
        let session = try await before.service.login(username: "ada", password: AccountsHarness.password)
        let revoked = try await before.service.login(username: "ada", password: AccountsHarness.password)
        try await before.service.logout(token: revoked.token)
        try await before.service.createAccount(role: .dispatcher, username: "desk", password: AccountsHarness.password)
        try await before.service.disable(username: "desk")

        let after = before.restarted(store: try SQLiteAccountStore(directory: directory))
        #expect(try await after.service.authenticate(bearer: session.token) == ada)
        #expect(try await after.service.authenticate(bearer: revoked.token) == nil)
        #expect(try await after.service.login(username: "ada", password: AccountsHarness.password).account == ada)
        await #expect(throws: AccountError.disabled) {
            try await after.service.login(username: "desk", password: AccountsHarness.password)
        }
        #expect(try await after.service.outbox().count == 1)
    }
}
