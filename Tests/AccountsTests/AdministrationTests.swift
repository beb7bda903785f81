import Accounts
import FixRecords
import Foundation
import Storage
import Testing

/// SPEC A2: administrators create drivers (username = the taxi's id) and
/// staff, list and disable accounts, and read the outbox.
@Suite(.timeLimit(.minutes(20))) struct AdministrationTests {
    @Test func aDriverDrivesTheTaxiNamedByItsUsernameUnlessAnotherIsGiven() async throws {
        let harness = AccountsHarness()
        let byName = try await harness.service.createAccount(role: .driver, username: "T-17", password: AccountsHarness.password)
        #expect(byName.taxi == "T-17")
        let other = try await harness.service.createAccount(role: .driver, username: "maria", password: AccountsHarness.password, taxi: "T-18")
        #expect(other.taxi == "T-18")
        await #expect(throws: AccountError.taken(field: .taxi, value: "T-18")) {
            try await harness.service.createAccount(role: .driver, username: "T-18", password: AccountsHarness.password)
        }
    }

    /// Staff log in at once: no e-mail to confirm, and a given address counts as confirmed.
    @Test(arguments: Role.allCases)
    func anAccountCreatedByAnAdministratorLogsInAtOnce(role: Role) async throws {
        let harness = AccountsHarness()
        let email: String? = role == .passenger ? "walk-in@example.org" : nil
        let account = try await harness.service.createAccount(role: role, username: "someone", password: AccountsHarness.password, email: email)
        #expect(account.role == role)
        #expect(account.emailConfirmed == (email != nil))
        #expect(try await harness.service.login(username: "someone", password: AccountsHarness.password).account == account)
        #expect(try await harness.service.outbox().isEmpty)
    }

    @Test func aPassengerNeedsAnEmailAndOnlyADriverATaxi() async throws {
        let harness = AccountsHarness()
        await #expect(throws: AccountError.notForRole([FieldProblem(field: .email, problem: "a passenger needs an e-mail address")])) {
            try await harness.service.createAccount(role: .passenger, username: "ada", password: AccountsHarness.password)
        }
        await #expect(throws: AccountError.invalid([
            FieldProblem(field: .password, problem: "the password needs at least one digit"),
            FieldProblem(field: .taxi, problem: "only a driver has a taxi, not a dispatcher"),
        ])) {
            try await harness.service.createAccount(role: .dispatcher, username: "desk", password: "no-digits!", taxi: "T-1")
        }
        #expect(try await harness.service.search().isEmpty)
    }

    @Test func accountsAreListedOldestFirstAllOrByRole() async throws {
        let harness = AccountsHarness()
        let root = try await harness.service.createAccount(role: .administrator, username: "root", password: AccountsHarness.password)
        let driver = try await harness.service.createAccount(role: .driver, username: "T-1", password: AccountsHarness.password)
        let ada = try await harness.confirmedPassenger("ada")
        #expect(try await harness.service.search() == [root, driver, ada])
        #expect(try await harness.service.search(AccountQuery(role: .driver)) == [driver])
        #expect(try await harness.service.search(AccountQuery(role: .partner)) == [])
    }

    @Test func disablingAnUnknownAccountSaysSo() async throws {
        let harness = AccountsHarness()
        await #expect(throws: AccountError.unknownAccount(username: "ghost")) { try await harness.service.disable(username: "ghost") }
        #expect(AccountError.unknownAccount(username: "ghost").description.contains("mytaxi accounts list"))
    }

    @Test func theOutboxIsReadNewestFirst() async throws {
        let harness = AccountsHarness()
        for name in ["ada", "bob", "cy"] {
            try await harness.service.registerPassenger(username: name, email: "\(name)@example.org", password: AccountsHarness.password)
        }
        #expect(try await harness.service.outbox(limit: 2).map(\.message.to) == ["cy@example.org", "bob@example.org"])
    }

    /// Every error says what is wrong and what to do, in words the API can show.
    @Test(arguments: [
        (AccountError.badCredentials, "try again"), (.emailNotConfirmed, "confirmation e-mail"), (.disabled, "administrator"),
        (.invalidToken, "new confirmation e-mail"), (.taken(field: .email, value: "a@b.org"), "e-mail address a@b.org"),
        (.storage(.writeFailed(reason: "disk full")), "disk full"),
        (.invalid([FieldProblem(field: .password, problem: "p1"), FieldProblem(field: .username, problem: "u1")]), "p1; u1"),
        (.notForRole([FieldProblem(field: .email, problem: "e1"), FieldProblem(field: .taxi, problem: "t1")]), "e1; t1"),
    ])
    func errorsSayWhatIsWrongAndWhatToDo(error: AccountError, expected: String) {
        #expect(error.description.contains(expected))
    }
}
