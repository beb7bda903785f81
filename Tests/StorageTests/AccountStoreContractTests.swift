import FixRecords
import Foundation
import PostgresStorage
import SQLiteStorage
import Testing
import Storage

/// The `AccountStore` contract, run against every implementation: what the
/// account service relies on, whichever store is behind it.
@Suite(.timeLimit(.minutes(20))) struct AccountStoreContractTests {
    /// The implementations under test, by name.
    static let implementations = ["in-memory", "sqlite"] + PostgresTestDatabase.implementation("postgresql")

    /// A fresh, empty store of kind `name`, a way to open it again (nil when
    /// it does not outlive the process), and what removes it afterwards.
    static func make(_ name: String) throws -> (store: any AccountStore, reopen: (() throws -> any AccountStore)?, cleanUp: () -> Void) {
        switch name {
        case "postgresql":
            let database = try PostgresTestDatabase.make()
            return (PostgresAccountStore(pool: database.pool), { PostgresAccountStore(pool: PostgresPool(url: database.url)) }, database.cleanUp)
        case "sqlite":
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("mytaxi-accounts-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            return (try SQLiteAccountStore(directory: path), { try SQLiteAccountStore(directory: path) },
                    { try? FileManager.default.removeItem(atPath: path) })
        default:
            return (InMemoryAccountStore(), nil, {})
        }
    }

    static let start = Date(timeIntervalSince1970: 1_790_000_000.123_4)

    static func account(_ username: String, role: Role = .passenger, email: String? = nil, taxi: TaxiID? = nil) -> NewAccount {
        NewAccount(
            username: username, role: role, email: email, passwordHash: "$2b$04$hash-of-\(username)", taxi: taxi,
            emailConfirmed: email == nil, createdAt: start)
    }

    static func hash(_ byte: UInt8) -> Data { Data(repeating: byte, count: 32) }

    static func token(_ byte: UInt8, account: Int64, kind: TokenKind = .session, expiresIn seconds: Double = 3600) -> TokenRecord {
        TokenRecord(hash: hash(byte), accountID: account, kind: kind, createdAt: start, expiresAt: start.addingTimeInterval(seconds))
    }

    static func confirmation(_ byte: UInt8, to email: String) -> AccountConfirmation {
        AccountConfirmation(
            tokenHash: hash(byte), createdAt: start, expiresAt: start.addingTimeInterval(86_400),
            email: EmailMessage(to: email, subject: "Confirm", body: "token \(byte)"))
    }

    @Test(arguments: implementations)
    func anAccountComesBackByIdAndByUsernameInAnyCase(implementation: String) async throws {
        let (store, _, cleanUp) = try Self.make(implementation)
        defer { cleanUp() }
        let stored = try await store.insert(Self.account("Ada", email: "ada@example.org"), confirmation: nil)
        #expect(stored.id == 1)
        #expect(stored.username == "Ada")
        #expect(stored.email == "ada@example.org")
        #expect(!stored.disabled)
        #expect(stored.createdAt == Date(timeIntervalSince1970: 1_790_000_000.123), "dates are kept to the millisecond")
        #expect(try await store.account(id: stored.id) == stored)
        #expect(try await store.account(username: "ADA") == stored)
        #expect(try await store.account(username: "ada") == stored)
        #expect(try await store.account(username: "bob") == nil)
        #expect(try await store.account(id: 99) == nil)
    }

    /// A username, an e-mail address and a taxi belong to one account each, whatever their case.
    @Test(arguments: implementations, ["username", "email", "taxi"])
    func aTakenUsernameEmailOrTaxiIsAConflictAndStoresNothing(implementation: String, field: String) async throws {
        let (store, _, cleanUp) = try Self.make(implementation)
        defer { cleanUp() }
        try await store.insert(Self.account("T-17", role: .driver, email: "t17@example.org", taxi: "T-17"), confirmation: nil)
        let second: NewAccount
        let value: String
        switch field {
        case "username": (second, value) = (Self.account("t-17", role: .dispatcher), "t-17")
        case "email": (second, value) = (Self.account("other", email: "T17@Example.ORG"), "T17@Example.ORG")
        default: (second, value) = (Self.account("other", role: .driver, taxi: "t-17"), "t-17")
        }
        await #expect(throws: StorageError.conflict(field: field, value: value)) {
            try await store.insert(second, confirmation: Self.confirmation(1, to: "x@example.org"))
        }
        #expect(try await store.accounts(role: nil).count == 1)
        #expect(try await store.outbox(limit: 10).isEmpty)
        #expect(try await store.token(hash: Self.hash(1)) == nil)
    }

    @Test(arguments: implementations)
    func accountsAreListedOldestFirstAllOrByRole(implementation: String) async throws {
        let (store, _, cleanUp) = try Self.make(implementation)
        defer { cleanUp() }
        let admin = try await store.insert(Self.account("root", role: .administrator), confirmation: nil)
        let driver = try await store.insert(Self.account("T1", role: .driver, taxi: "T1"), confirmation: nil)
        let ada = try await store.insert(Self.account("ada", email: "ada@example.org"), confirmation: nil)
        #expect(try await store.accounts(role: nil) == [admin, driver, ada])
        #expect(try await store.accounts(role: .driver) == [driver])
        #expect(try await store.accounts(role: .planner) == [])
        #expect(try await store.accounts(role: nil, after: 0, limit: 2) == [admin, driver], "a page")
        #expect(try await store.accounts(role: nil, after: driver.id, limit: 2) == [ada], "the next page")
        #expect(try await store.accounts(role: .passenger, after: admin.id, limit: 5) == [ada])
        #expect(try await store.accounts(role: nil, after: ada.id, limit: 5) == [])
        #expect(driver.taxi == "T1")
    }

    /// Registration writes the account, its confirmation token and its e-mail together.
    @Test(arguments: implementations)
    func aConfirmationIsStoredWithItsAccount(implementation: String) async throws {
        let (store, _, cleanUp) = try Self.make(implementation)
        defer { cleanUp() }
        let ada = try await store.insert(Self.account("ada", email: "ada@example.org"), confirmation: Self.confirmation(7, to: "ada@example.org"))
        #expect(!ada.emailConfirmed)
        let found = try #require(try await store.token(hash: Self.hash(7)))
        #expect(found.account == ada)
        #expect(found.token == TokenRecord(
            hash: Self.hash(7), accountID: ada.id, kind: .emailConfirmation,
            createdAt: ada.createdAt, expiresAt: Date(timeIntervalSince1970: 1_790_086_400.123)))
        let mail = try #require(try await store.outbox(limit: 10).first)
        #expect(mail.message == EmailMessage(to: "ada@example.org", subject: "Confirm", body: "token 7"))
        #expect(mail.createdAt == ada.createdAt)
    }

    @Test(arguments: implementations)
    func confirmingMarksTheAccountAndUsesUpTheToken(implementation: String) async throws {
        let (store, _, cleanUp) = try Self.make(implementation)
        defer { cleanUp() }
        let ada = try await store.insert(Self.account("ada", email: "ada@example.org"), confirmation: Self.confirmation(7, to: "ada@example.org"))
        try await store.addConfirmation(Self.confirmation(8, to: "ada@example.org"), accountID: ada.id)
        #expect(try await store.outbox(limit: 10).map(\.message.body) == ["token 8", "token 7"])
        let confirmed = try #require(try await store.confirmEmail(accountID: ada.id, tokenHash: Self.hash(8)))
        #expect(confirmed.emailConfirmed)
        #expect(try await store.account(id: ada.id) == confirmed)
        #expect(try await store.token(hash: Self.hash(8))?.token.revoked == true)
        #expect(try await store.token(hash: Self.hash(7))?.token.revoked == false)
        #expect(try await store.confirmEmail(accountID: 99, tokenHash: Self.hash(8)) == nil)
    }

    /// A password change stores the new hash and revokes every token of the
    /// account but the one kept, and no other account's.
    @Test(arguments: implementations)
    func aPasswordChangeRevokesTheAccountsOtherTokensOnly(implementation: String) async throws {
        let (store, reopen, cleanUp) = try Self.make(implementation)
        defer { cleanUp() }
        let one = try await store.insert(Self.account("one", role: .dispatcher), confirmation: nil)
        let two = try await store.insert(Self.account("two", role: .dispatcher), confirmation: nil)
        for (byte, account) in [(1, one), (2, one), (3, two)] as [(UInt8, AccountRecord)] {
            try await store.insertToken(Self.token(byte, account: account.id))
        }
        let changed = try #require(try await store.changePassword(accountID: one.id, passwordHash: "$2b$new", keepingToken: Self.hash(2)))
        #expect(changed.passwordHash == "$2b$new")
        for reader in [store] + (try reopen.map { [try $0()] } ?? []) {
            #expect(try await reader.account(id: one.id)?.passwordHash == "$2b$new")
            #expect(try await reader.token(hash: Self.hash(1))?.token.revoked == true)
            #expect(try await reader.token(hash: Self.hash(2))?.token.revoked == false, "the session that changed it goes on")
            #expect(try await reader.token(hash: Self.hash(3))?.token.revoked == false, "another account's")
        }
        #expect(try await store.changePassword(accountID: 99, passwordHash: "$2b$x", keepingToken: nil) == nil)
    }

    /// Disabling an account revokes every token of it, and no other account's.
    @Test(arguments: implementations)
    func disablingRevokesEveryTokenOfTheAccountOnly(implementation: String) async throws {
        let (store, _, cleanUp) = try Self.make(implementation)
        defer { cleanUp() }
        let one = try await store.insert(Self.account("one", role: .dispatcher), confirmation: nil)
        let two = try await store.insert(Self.account("two", role: .dispatcher), confirmation: nil)
        for (byte, account) in [(1, one), (2, one), (3, two)] as [(UInt8, AccountRecord)] {
            try await store.insertToken(Self.token(byte, account: account.id))
        }
        let disabled = try #require(try await store.disable(accountID: one.id))
        #expect(disabled.disabled)
        #expect(try await store.token(hash: Self.hash(1))?.token.revoked == true)
        #expect(try await store.token(hash: Self.hash(2))?.account.disabled == true)
        #expect(try await store.token(hash: Self.hash(3))?.token.revoked == false)
        #expect(try await store.disable(accountID: 99) == nil)
    }

    @Test(arguments: implementations)
    func aTokenIsRevokedOnce(implementation: String) async throws {
        let (store, _, cleanUp) = try Self.make(implementation)
        defer { cleanUp() }
        let one = try await store.insert(Self.account("one", role: .planner), confirmation: nil)
        try await store.insertToken(Self.token(1, account: one.id))
        #expect(try await store.token(hash: Self.hash(1))?.token == Self.token(1, account: one.id).rounded)
        #expect(try await store.revokeToken(hash: Self.hash(1)))
        #expect(try await !store.revokeToken(hash: Self.hash(1)))
        #expect(try await !store.revokeToken(hash: Self.hash(9)))
        #expect(try await store.token(hash: Self.hash(1))?.token.revoked == true)
    }

    /// A token needs an existing account, a 32-byte hash, and a hash of its own.
    @Test(arguments: implementations)
    func tokensOfUnknownAccountsBadHashesAndDuplicatesAreRefused(implementation: String) async throws {
        let (store, _, cleanUp) = try Self.make(implementation)
        defer { cleanUp() }
        let one = try await store.insert(Self.account("one", role: .planner), confirmation: nil)
        try await store.insertToken(Self.token(1, account: one.id))
        await #expect(throws: StorageError.self) { try await store.insertToken(Self.token(2, account: 99)) }
        await #expect(throws: StorageError.self) { try await store.insertToken(Self.token(1, account: one.id)) }
        await #expect(throws: StorageError.self) {
            try await store.insertToken(TokenRecord(hash: Data([1, 2]), accountID: one.id, kind: .session, createdAt: Self.start, expiresAt: Self.start))
        }
        await #expect(throws: StorageError.self) {
            try await store.addConfirmation(Self.confirmation(3, to: "x@example.org"), accountID: 99)
        }
        #expect(try await store.outbox(limit: 10).isEmpty, "a refused confirmation writes no e-mail")
    }

    @Test(arguments: implementations)
    func tokensExpiredBeforeADateAreDeleted(implementation: String) async throws {
        let (store, _, cleanUp) = try Self.make(implementation)
        defer { cleanUp() }
        let one = try await store.insert(Self.account("one", role: .planner), confirmation: nil)
        try await store.insertToken(Self.token(1, account: one.id, expiresIn: 60))
        try await store.insertToken(Self.token(2, account: one.id, expiresIn: 120))
        #expect(try await store.deleteTokens(expiredBefore: Self.start.addingTimeInterval(120)) == 1)
        #expect(try await store.token(hash: Self.hash(1)) == nil)
        #expect(try await store.token(hash: Self.hash(2)) != nil)
    }

    /// Only passengers who never confirmed and hold no working confirmation
    /// token go, with their tokens; nobody else, whatever their flags.
    @Test(arguments: implementations)
    func unconfirmedPassengersGoWhenTheirLastConfirmationExpired(implementation: String) async throws {
        let (store, _, cleanUp) = try Self.make(implementation)
        defer { cleanUp() }
        let abandoned = try await store.insert(Self.account("gone", email: "gone@example.org"), confirmation: Self.confirmation(1, to: "gone@example.org"))
        let renewed = try await store.insert(Self.account("renewed", email: "renewed@example.org"), confirmation: Self.confirmation(2, to: "renewed@example.org"))
        try await store.addConfirmation(
            AccountConfirmation(
                tokenHash: Self.hash(3), createdAt: Self.start.addingTimeInterval(80_000), expiresAt: Self.start.addingTimeInterval(166_400),
                email: EmailMessage(to: "renewed@example.org", subject: "Confirm", body: "token 3")),
            accountID: renewed.id)
        let confirmed = try await store.insert(Self.account("kept", email: "kept@example.org"), confirmation: Self.confirmation(4, to: "kept@example.org"))
        try await store.confirmEmail(accountID: confirmed.id, tokenHash: Self.hash(4))
        let desk = try await store.insert(
            NewAccount(username: "desk", role: .dispatcher, email: nil, passwordHash: "$2b$04$x", taxi: nil, emailConfirmed: false, createdAt: Self.start),
            confirmation: nil)
        try await store.insertToken(Self.token(5, account: abandoned.id, expiresIn: 200_000))

        #expect(try await store.deleteUnconfirmedPassengers(asOf: Self.start.addingTimeInterval(86_400)) == 0, "a token that works to the millisecond keeps its account")
        #expect(try await store.deleteUnconfirmedPassengers(asOf: Self.start.addingTimeInterval(86_401)) == 1)
        #expect(try await store.account(id: abandoned.id) == nil)
        #expect(try await store.token(hash: Self.hash(5)) == nil, "its tokens went with it")
        #expect(try await store.account(username: "GONE") == nil)
        #expect(try await store.accounts(role: nil).map(\.username) == ["renewed", "kept", "desk"])
        #expect(try await store.account(id: desk.id)?.username == "desk", "ids still find the accounts after one before them went")
        let again = try await store.insert(Self.account("gone", email: "gone@example.org"), confirmation: nil)
        #expect(again.id > desk.id, "ids are never given twice")
    }

    @Test(arguments: implementations)
    func anAccountIsFoundByItsAddressInAnyCase(implementation: String) async throws {
        let (store, _, cleanUp) = try Self.make(implementation)
        defer { cleanUp() }
        let ada = try await store.insert(Self.account("ada", email: "Ada@Example.org"), confirmation: nil)
        #expect(try await store.account(email: "ada@example.ORG") == ada)
        #expect(try await store.account(email: "bob@example.org") == nil)
    }

    @Test(arguments: implementations)
    func anEMailWithoutATokenIsSentThroughTheOutbox(implementation: String) async throws {
        let (store, _, cleanUp) = try Self.make(implementation)
        defer { cleanUp() }
        try await store.insert(Self.account("ada", email: "ada@example.org"), confirmation: Self.confirmation(1, to: "ada@example.org"))
        try await store.send(EmailMessage(to: "ada@example.org", subject: "Exists", body: "hello"), at: Self.start.addingTimeInterval(5))
        let newest = try await store.outbox(limit: 10)
        #expect(newest.map(\.message.subject) == ["Exists", "Confirm"])
        #expect(newest.first?.createdAt == Self.start.addingTimeInterval(5).roundedToStoredMilliseconds)
    }

    @Test(arguments: implementations)
    func theOutboxComesBackNewestFirstWithinTheLimit(implementation: String) async throws {
        let (store, _, cleanUp) = try Self.make(implementation)
        defer { cleanUp() }
        for number in 1...3 {
            try await store.insert(
                Self.account("p\(number)", email: "p\(number)@example.org"),
                confirmation: Self.confirmation(UInt8(number), to: "p\(number)@example.org"))
        }
        let newest = try await store.outbox(limit: 2)
        #expect(newest.map(\.message.to) == ["p3@example.org", "p2@example.org"])
        #expect(newest.map(\.id) == [3, 2])
        #expect(try await store.outbox(limit: 0).isEmpty)
    }

    /// Accounts, tokens, revocations and the outbox survive a restart.
    @Test(arguments: implementations)
    func whatWasWrittenOutlivesTheProcess(implementation: String) async throws {
        let (store, reopen, cleanUp) = try Self.make(implementation)
        defer { cleanUp() }
        guard let reopen else { return }
        let ada = try await store.insert(Self.account("ada", email: "ada@example.org"), confirmation: Self.confirmation(7, to: "ada@example.org"))
        let confirmed = try #require(try await store.confirmEmail(accountID: ada.id, tokenHash: Self.hash(7)))
        try await store.insertToken(Self.token(1, account: ada.id))
        try await store.insertToken(Self.token(2, account: ada.id))
        try await store.revokeToken(hash: Self.hash(2))
        let reopened = try reopen()
        #expect(try await reopened.account(username: "ada") == confirmed)
        #expect(try await reopened.token(hash: Self.hash(1))?.token == Self.token(1, account: ada.id).rounded)
        #expect(try await reopened.token(hash: Self.hash(2))?.token.revoked == true)
        #expect(try await reopened.outbox(limit: 10).count == 1)
        let next = try await reopened.insert(Self.account("bob", role: .dispatcher), confirmation: nil)
        #expect(next.id == 2, "ids go on after a restart")
    }
}

extension TokenRecord {
    /// This record with its dates as a store keeps them, to the millisecond.
    var rounded: TokenRecord {
        func round(_ date: Date) -> Date { Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000) }
        return TokenRecord(hash: hash, accountID: accountID, kind: kind, createdAt: round(createdAt), expiresAt: round(expiresAt), revoked: revoked)
    }
}
