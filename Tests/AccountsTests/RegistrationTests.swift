import Accounts
import Foundation
import ServiceClock
import HummingbirdBcrypt
import Storage
import Testing

/// SPEC A2: a passenger registers with a username, an e-mail address and a
/// password, and confirms the address with the token the e-mail carries.
@Suite(.timeLimit(.minutes(20))) struct RegistrationTests {
    /// The store keeps a salted bcrypt hash, never the password; the hash verifies it.
    @Test func theHashNeverEqualsThePasswordAndVerifiesIt() async throws {
        let harness = AccountsHarness()
        let ada = try #require(try await harness.service.registerPassenger(username: "ada", email: "ada@example.org", password: AccountsHarness.password).account)
        #expect(ada.passwordHash != AccountsHarness.password)
        #expect(!ada.passwordHash.contains(AccountsHarness.password))
        #expect(ada.passwordHash.hasPrefix("$2b$04$"))
        #expect(Bcrypt.verify(AccountsHarness.password, hash: ada.passwordHash))
        #expect(!Bcrypt.verify("analytical-2", hash: ada.passwordHash))
        let bob = try #require(try await harness.service.registerPassenger(username: "bob", email: "bob@example.org", password: AccountsHarness.password).account)
        #expect(bob.passwordHash != ada.passwordHash, "every hash has its own salt")
        #expect(!ada.description.contains(ada.passwordHash), "an account's description leaves the hash out")
    }

    @Test func theHashHasTheConfiguredCost() async throws {
        let harness = AccountsHarness(settings: AccountSettings(bcryptCost: 5))
        let ada = try #require(try await harness.service.registerPassenger(username: "ada", email: "ada@example.org", password: AccountsHarness.password).account)
        #expect(ada.passwordHash.hasPrefix("$2b$05$"))
    }

    @Test func registrationWritesAConfirmationEmailWithAToken() async throws {
        let harness = AccountsHarness()
        let ada = try #require(try await harness.service.registerPassenger(username: "ada", email: "ada@example.org", password: AccountsHarness.password).account)
        #expect(ada.role == .passenger)
        #expect(!ada.emailConfirmed)
        let mail = try #require(try await harness.service.outbox(limit: 10).first)
        #expect(mail.message.to == "ada@example.org")
        #expect(mail.message.subject == "Confirm your mytaxi e-mail address")
        #expect(mail.message.body.contains("Hello ada"))
        #expect(mail.message.body.contains("before 2026-09-22T"), "the e-mail says until when the token works")
        let token = try await harness.confirmationToken(for: "ada@example.org")
        #expect(token.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }, "base64url")
    }

    @Test func theConfirmationEmailCarriesALinkWhenTheServiceHasOne() async throws {
        let harness = AccountsHarness(settings: AccountSettings(bcryptCost: 4, confirmationLinkPrefix: "https://taxi.example/confirm?token="))
        try await harness.service.registerPassenger(username: "ada", email: "ada@example.org", password: AccountsHarness.password)
        let token = try await harness.confirmationToken(for: "ada@example.org")
        let body = try #require(try await harness.service.outbox().first?.message.body)
        #expect(body.contains("https://taxi.example/confirm?token=\(token)"))
    }

    /// Every problem of every field comes back at once, each with its field.
    @Test func everyInvalidFieldIsNamed() async throws {
        let harness = AccountsHarness()
        await #expect(throws: AccountError.invalid([
            FieldProblem(field: .username, problem: "the username may contain only ASCII letters, digits, '.', '_' and '-'"),
            FieldProblem(field: .email, problem: "the e-mail address must look like name@example.org"),
            FieldProblem(field: .password, problem: "the password needs at least one digit"),
        ])) {
            try await harness.service.registerPassenger(username: "ada lovelace", email: "ada", password: "analytical!")
        }
        #expect(try await harness.service.search().isEmpty)
        #expect(try await harness.service.outbox().isEmpty)
    }

    @Test func aWeakPasswordIsRefusedWithEveryRuleItBreaks() async throws {
        let harness = AccountsHarness()
        do {
            try await harness.service.registerPassenger(username: "ada", email: "ada@example.org", password: "ada")
            Issue.record("a weak password was accepted")
        } catch .invalid(let problems) {
            #expect(problems.map(\.field) == [.password, .password, .password])
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    /// `Ada` and `ada` are one name: the second registration is refused, naming the field.
    @Test func aDuplicateUsernameIsRefusedWhateverItsCase() async throws {
        let harness = AccountsHarness()
        try await harness.service.registerPassenger(username: "ada", email: "ada@example.org", password: AccountsHarness.password)
        await #expect(throws: AccountError.taken(field: .username, value: "ADA")) {
            try await harness.service.registerPassenger(username: "ADA", email: "other@example.org", password: AccountsHarness.password)
        }
        #expect(AccountError.taken(field: .username, value: "ADA").description == "the username ADA is already taken; choose another")
    }

    /// An address that has an account is not registered again, and the
    /// caller is not told: the address gets an e-mail naming its account.
    @Test func aTakenAddressIsToldByEMailOnlyWhateverItsCase() async throws {
        let harness = AccountsHarness()
        try await harness.service.registerPassenger(username: "ada", email: "ada@example.org", password: AccountsHarness.password)
        let again = try await harness.service.registerPassenger(username: "ada2", email: "Ada@Example.org", password: AccountsHarness.password)
        #expect(again == .addressAlreadyRegistered)
        #expect(try await harness.service.search().map(\.username) == ["ada"], "nothing was stored")
        let mail = try #require(try await harness.service.outbox().first)
        #expect(mail.message.to == "Ada@Example.org")
        #expect(mail.message.subject == "You already have a mytaxi account")
        #expect(mail.message.body.contains("its username is ada"))
        #expect(mail.message.body.contains("not confirmed yet"), "ada never confirmed: the e-mail says how to")
        #expect(!mail.message.body.contains("ada2"))
    }

    /// A passenger who lets the confirmation expire is deleted: the username
    /// and the address can be registered again, also before the hourly purge.
    @Test func anAbandonedRegistrationFreesItsNameAndAddressWhenItsTokenExpires() async throws {
        let harness = AccountsHarness()
        try await harness.service.registerPassenger(username: "ada", email: "ada@example.org", password: AccountsHarness.password)
        try await harness.confirmedPassenger("bob")
        harness.clock.advance(by: .seconds(24 * 3600 - 1))
        await #expect(throws: AccountError.taken(field: .username, value: "ada")) {
            try await harness.service.registerPassenger(username: "ada", email: "other@example.org", password: AccountsHarness.password)
        }
        harness.clock.advance(by: .seconds(2))
        let again = try await harness.service.registerPassenger(username: "ada", email: "ada@example.org", password: AccountsHarness.password)
        #expect(again.account?.username == "ada", "the expired registration was deleted first")
        #expect(try await harness.service.search().map(\.username) == ["bob", "ada"], "a confirmed passenger stays")
        harness.clock.advance(by: .seconds(24 * 3600 + 1))
        #expect(try await harness.service.purgeExpired().accounts == 1, "the hourly purge deletes it too")
        #expect(try await harness.service.search().map(\.username) == ["bob"])
    }

    @Test func loginBeforeConfirmationIsRefused() async throws {
        let harness = AccountsHarness()
        try await harness.service.registerPassenger(username: "ada", email: "ada@example.org", password: AccountsHarness.password)
        await #expect(throws: AccountError.emailNotConfirmed) {
            try await harness.service.login(username: "ada", password: AccountsHarness.password)
        }
    }

    @Test func confirmThenLoginSucceeds() async throws {
        let harness = AccountsHarness()
        try await harness.service.registerPassenger(username: "ada", email: "ada@example.org", password: AccountsHarness.password)
        let confirmed = try await harness.service.confirmEmail(token: try await harness.confirmationToken(for: "ada@example.org"))
        #expect(confirmed.emailConfirmed)
        let session = try await harness.service.login(username: "ada", password: AccountsHarness.password)
        #expect(session.account.username == "ada")
        #expect(session.account.role == .passenger)
    }

    @Test func aConfirmationTokenWorksOnce() async throws {
        let harness = AccountsHarness()
        try await harness.service.registerPassenger(username: "ada", email: "ada@example.org", password: AccountsHarness.password)
        let token = try await harness.confirmationToken(for: "ada@example.org")
        try await harness.service.confirmEmail(token: token)
        await #expect(throws: AccountError.invalidToken) { try await harness.service.confirmEmail(token: token) }
    }

    /// The token of the e-mail works for 24 hours, to the second.
    @Test func aConfirmationTokenExpiresAfter24Hours() async throws {
        let harness = AccountsHarness()
        try await harness.service.registerPassenger(username: "ada", email: "ada@example.org", password: AccountsHarness.password)
        try await harness.service.registerPassenger(username: "bob", email: "bob@example.org", password: AccountsHarness.password)
        harness.clock.advance(by: .seconds(24 * 3600 - 1))
        try await harness.service.confirmEmail(token: try await harness.confirmationToken(for: "ada@example.org"))
        harness.clock.advance(by: .seconds(1))
        await #expect(throws: AccountError.invalidToken) {
            try await harness.service.confirmEmail(token: try await harness.confirmationToken(for: "bob@example.org"))
        }
    }

    /// A passenger whose token expired asks for a new e-mail (with the password) and confirms with it.
    @Test func aNewConfirmationEmailReplacesAnExpiredOne() async throws {
        let harness = AccountsHarness()
        try await harness.service.registerPassenger(username: "ada", email: "ada@example.org", password: AccountsHarness.password)
        let expired = try await harness.confirmationToken(for: "ada@example.org")
        harness.clock.advance(by: .seconds(25 * 3600))
        await #expect(throws: AccountError.badCredentials) {
            try await harness.service.requestConfirmationEmail(username: "ada", password: "analytical-2")
        }
        try await harness.service.requestConfirmationEmail(username: "ada", password: AccountsHarness.password)
        let fresh = try await harness.confirmationToken(for: "ada@example.org")
        #expect(fresh != expired)
        #expect(try await harness.service.confirmEmail(token: fresh).emailConfirmed)
        let count = try await harness.service.outbox().count
        #expect(try await harness.service.requestConfirmationEmail(username: "ada", password: AccountsHarness.password).emailConfirmed)
        #expect(try await harness.service.outbox().count == count, "a confirmed address gets no more e-mails")
    }

    @Test(arguments: ["", "not-a-token", String(repeating: "x", count: 10_000)])
    func anUnknownConfirmationTokenIsRefused(token: String) async throws {
        let harness = AccountsHarness()
        await #expect(throws: AccountError.invalidToken) { try await harness.service.confirmEmail(token: token) }
    }

    /// A session token is no confirmation token, and a confirmation token no bearer token.
    @Test func tokenKindsAreNotInterchangeable() async throws {
        let harness = AccountsHarness()
        try await harness.service.registerPassenger(username: "ada", email: "ada@example.org", password: AccountsHarness.password)
        let confirmation = try await harness.confirmationToken(for: "ada@example.org")
        #expect(try await harness.service.authenticate(bearer: confirmation) == nil)
        #expect(try await !harness.service.logout(token: confirmation))
        try await harness.service.confirmEmail(token: confirmation)
        let session = try await harness.service.login(username: "ada", password: AccountsHarness.password)
        await #expect(throws: AccountError.invalidToken) { try await harness.service.confirmEmail(token: session.token) }
    }
}
