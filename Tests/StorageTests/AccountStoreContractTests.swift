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
        #expect(try await store.accounts(matching: AccountQuery(), after: 0, limit: 2) == [admin, driver], "a page")
        #expect(try await store.accounts(matching: AccountQuery(), after: driver.id, limit: 2) == [ada], "the next page")
        #expect(try await store.accounts(matching: AccountQuery(role: .passenger), after: admin.id, limit: 5) == [ada])
        #expect(try await store.accounts(matching: AccountQuery(), after: ada.id, limit: 5) == [])
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
        let disabled = try #require(try await store.setDisabled(true, accountID: one.id))
        #expect(disabled.disabled)
        #expect(try await store.token(hash: Self.hash(1))?.token.revoked == true)
        #expect(try await store.token(hash: Self.hash(2))?.account.disabled == true)
        #expect(try await store.token(hash: Self.hash(3))?.token.revoked == false)
        #expect(try await store.setDisabled(true, accountID: 99) == nil)
        let enabled = try #require(try await store.setDisabled(false, accountID: one.id))
        #expect(!enabled.disabled && enabled.state == .active)
        #expect(try await store.token(hash: Self.hash(1))?.token.revoked == true, "enabling brings no old session back")
    }

    /// Administrators search by role, state and part of the username or address, in any case.
    @Test(arguments: implementations)
    func accountsAreFoundByRoleStateAndText(implementation: String) async throws {
        let (store, _, cleanUp) = try Self.make(implementation)
        defer { cleanUp() }
        let admin = try await store.insert(Self.account("root", role: .administrator), confirmation: nil)
        var confirmed = Self.account("Ada", email: "Ada.Lovelace@example.org")
        confirmed.emailConfirmed = true
        let ada = try await store.insert(confirmed, confirmation: nil)
        let bob = try await store.insert(Self.account("bob", email: "bob@example.org"), confirmation: Self.confirmation(1, to: "bob@example.org"))
        let desk = try await store.insert(Self.account("desk_1", role: .dispatcher, email: "desk%1@example.org"), confirmation: nil)
        let disabledDesk = try #require(try await store.setDisabled(true, accountID: desk.id))
        #expect(bob.state == .unconfirmed && ada.state == .active && disabledDesk.state == .disabled)
        func found(_ query: AccountQuery) async throws -> [String] {
            try await store.accounts(matching: query, after: 0, limit: 10).map(\.username)
        }
        #expect(try await found(AccountQuery(text: "LOVE")) == ["Ada"], "part of the address, any case")
        #expect(try await found(AccountQuery(text: "o")) == ["root", "Ada", "bob", "desk_1"])
        #expect(try await found(AccountQuery(text: "%")) == ["desk_1"], "no wildcard: '%' is a character")
        #expect(try await found(AccountQuery(text: "_")) == ["desk_1"])
        #expect(try await found(AccountQuery(state: .unconfirmed)) == ["bob"])
        #expect(try await found(AccountQuery(state: .disabled)) == ["desk_1"])
        #expect(try await found(AccountQuery(state: .active)) == ["root", "Ada"])
        #expect(try await found(AccountQuery(role: .passenger, state: .active, text: "example")) == ["Ada"])
        #expect(try await store.accounts(matching: AccountQuery(text: "o"), after: admin.id, limit: 2).map(\.username) == ["Ada", "bob"])
    }

    /// An edit sets the role, address and taxi; a changed role or taxi ends the sessions.
    @Test(arguments: implementations)
    func anEditChangesTheFieldsAndEndsSessionsOnANewRoleOrTaxi(implementation: String) async throws {
        let (store, _, cleanUp) = try Self.make(implementation)
        defer { cleanUp() }
        let desk = try await store.insert(Self.account("desk", role: .dispatcher, email: "desk@example.org"), confirmation: nil)
        let driver = try await store.insert(Self.account("T1", role: .driver, taxi: "T1"), confirmation: nil)
        try await store.insertToken(Self.token(1, account: desk.id))
        try await store.insertToken(Self.token(2, account: driver.id))
        let moved = try #require(try await store.update(
            accountID: desk.id, role: .dispatcher, email: "front@example.org", emailConfirmed: true, taxi: nil))
        #expect(moved.email == "front@example.org" && moved.role == .dispatcher)
        #expect(try await store.token(hash: Self.hash(1))?.token.revoked == false, "a new address keeps the sessions")
        let promoted = try #require(try await store.update(
            accountID: desk.id, role: .planner, email: moved.email, emailConfirmed: true, taxi: nil))
        #expect(promoted.role == .planner)
        #expect(try await store.token(hash: Self.hash(1))?.token.revoked == true, "a new role ends them")
        await #expect(throws: StorageError.conflict(field: "taxi", value: "t1")) {
            try await store.update(accountID: desk.id, role: .driver, email: nil, emailConfirmed: false, taxi: "t1")
        }
        await #expect(throws: StorageError.conflict(field: "email", value: "FRONT@example.org")) {
            try await store.update(accountID: driver.id, role: .driver, email: "FRONT@example.org", emailConfirmed: true, taxi: "T1")
        }
        let retaxied = try #require(try await store.update(accountID: driver.id, role: .driver, email: nil, emailConfirmed: false, taxi: "T2"))
        #expect(retaxied.taxi == "T2")
        #expect(try await store.token(hash: Self.hash(2))?.token.revoked == true, "a new taxi ends the driver's sessions")
        #expect(try await store.update(accountID: 99, role: .planner, email: nil, emailConfirmed: false, taxi: nil) == nil)
    }

    /// Erasing keeps the id under a placeholder name and nothing personal; the name and address are free again.
    @Test(arguments: implementations)
    func anErasedAccountKeepsOnlyItsIdAndFreesItsNameAndAddress(implementation: String) async throws {
        let (store, reopen, cleanUp) = try Self.make(implementation)
        defer { cleanUp() }
        let ada = try await store.insert(Self.account("ada", email: "ada@example.org"), confirmation: Self.confirmation(1, to: "ada@example.org"))
        try await store.insertToken(Self.token(2, account: ada.id))
        let erased = try #require(try await store.erase(accountID: ada.id))
        #expect(erased.username == "deleted~\(ada.id)" && erased.email == nil && erased.taxi == nil)
        #expect(erased.deleted && erased.disabled && erased.state == .deleted)
        #expect(erased.passwordHash == AccountRecord.erasedPasswordHash)
        #expect(try await store.token(hash: Self.hash(1)) == nil, "its tokens are gone")
        #expect(try await store.token(hash: Self.hash(2)) == nil)
        #expect(try await store.account(username: "ada") == nil)
        #expect(try await store.account(email: "ada@example.org") == nil)
        #expect(try await store.deleteUnconfirmedPassengers(asOf: Self.start.addingTimeInterval(1e6)) == 0, "the row stays")
        #expect(try await store.setDisabled(false, accountID: ada.id)?.disabled == true, "a deleted account stays disabled")
        let again = try await store.insert(Self.account("ada", email: "ada@example.org"), confirmation: nil)
        #expect(again.id != ada.id)
        #expect(try await store.accounts(matching: AccountQuery(state: .deleted), after: 0, limit: 5) == [erased])
        if let reopen { #expect(try await reopen().account(id: ada.id) == erased) }
    }

    /// A password-reset token and an e-mail-change token are kept with their kind and new address.
    @Test(arguments: implementations)
    func anEmailChangeTokenMovesTheAccountToItsAddress(implementation: String) async throws {
        let (store, _, cleanUp) = try Self.make(implementation)
        defer { cleanUp() }
        let ada = try await store.insert(Self.account("ada", email: "ada@example.org"), confirmation: nil)
        let bob = try await store.insert(Self.account("bob", email: "bob@example.org"), confirmation: nil)
        var change = Self.confirmation(1, to: "lovelace@example.org")
        change.kind = .emailChange
        change.newAddress = "lovelace@example.org"
        try await store.addConfirmation(change, accountID: ada.id)
        var reset = Self.confirmation(2, to: "bob@example.org")
        reset.kind = .passwordReset
        try await store.addConfirmation(reset, accountID: bob.id)
        #expect(try await store.token(hash: Self.hash(1))?.token.email == "lovelace@example.org")
        #expect(try await store.token(hash: Self.hash(1))?.token.kind == .emailChange)
        #expect(try await store.token(hash: Self.hash(2))?.token.kind == .passwordReset)
        #expect(try await store.token(hash: Self.hash(2))?.token.email == nil)
        #expect(try await store.account(email: "ada@example.org")?.id == ada.id, "the old address stays until the token is back")
        let moved = try #require(try await store.confirmEmail(accountID: ada.id, tokenHash: Self.hash(1)))
        #expect(moved.email == "lovelace@example.org" && moved.emailConfirmed)
        #expect(try await store.token(hash: Self.hash(1))?.token.revoked == true)
        var clash = Self.confirmation(3, to: "bob@example.org")
        clash.kind = .emailChange
        clash.newAddress = "BOB@example.org"
        try await store.addConfirmation(clash, accountID: ada.id)
        await #expect(throws: StorageError.conflict(field: "email", value: "BOB@example.org")) {
            try await store.confirmEmail(accountID: ada.id, tokenHash: Self.hash(3))
        }
        #expect(try await store.account(id: ada.id)?.email == "lovelace@example.org", "nothing changed")
    }

    /// The outbox's deliveries: due e-mails oldest first, each attempt recorded, sent or failed for good.
    @Test(arguments: implementations)
    func theOutboxRecordsEachDeliveryAttempt(implementation: String) async throws {
        let (store, reopen, cleanUp) = try Self.make(implementation)
        defer { cleanUp() }
        for to in ["a@example.org", "b@example.org", "c@example.org"] {
            try await store.send(EmailMessage(to: to, subject: "S", body: "B"), at: Self.start)
        }
        let claim = Self.start.addingTimeInterval(900)
        let due = try await store.claimEmailsDue(at: Self.start, claimedUntil: claim, limit: 10)
        #expect(due.map(\.message.to) == ["a@example.org", "b@example.org", "c@example.org"])
        #expect(due.allSatisfy { $0.delivery == EmailDelivery() }, "queued, never tried")
        #expect(try await store.claimEmailsDue(at: Self.start, claimedUntil: claim, limit: 10).isEmpty, "taken: no other round takes them")
        let later = Self.start.addingTimeInterval(60)
        try await store.recordDelivery(ofEmail: due[0].id, at: Self.start, failure: nil, retryAt: nil)
        try await store.recordDelivery(ofEmail: due[1].id, at: Self.start, failure: "451 try later", retryAt: later)
        try await store.recordDelivery(ofEmail: due[2].id, at: Self.start, failure: "550 no such user", retryAt: nil)
        #expect(try await store.claimEmailsDue(at: Self.start, claimedUntil: claim, limit: 10).isEmpty)
        #expect(try await store.claimEmailsDue(at: later, claimedUntil: claim, limit: 10).map(\.message.to) == ["b@example.org"])
        let stored = Date(timeIntervalSince1970: 1_790_000_000.123)
        for reader in [store] + (try reopen.map { [try $0()] } ?? []) {
            let outbox = try await reader.outbox(limit: 10)
            #expect(outbox.map(\.delivery) == [
                EmailDelivery(state: .failed, attempts: 1, lastError: "550 no such user"),
                EmailDelivery(state: .queued, attempts: 1, lastError: "451 try later", nextAttemptAt: Date(timeIntervalSince1970: 1_790_000_900.123)),
                EmailDelivery(state: .sent, attempts: 1, sentAt: stored),
            ])
        }
    }

    /// The audit log comes back newest first, by page, and by target in any case.
    @Test(arguments: implementations)
    func theAuditLogIsReadNewestFirstAndByTarget(implementation: String) async throws {
        let (store, reopen, cleanUp) = try Self.make(implementation)
        defer { cleanUp() }
        let first = try await store.appendAudit(
            AuditAction(actor: "root", action: "account.create", target: "Ada", detail: "ada (passenger)"), at: Self.start)
        let second = try await store.appendAudit(AuditAction(actor: "root", action: "account.disable", target: "bob"), at: Self.start)
        let third = try await store.appendAudit(AuditAction(actor: "console", action: "account.enable", target: "ada"), at: Self.start)
        #expect(first.at == Date(timeIntervalSince1970: 1_790_000_000.123))
        #expect(try await store.auditEntries(target: nil, before: .max, limit: 10) == [third, second, first])
        #expect(try await store.auditEntries(target: nil, before: third.id, limit: 1) == [second])
        #expect(try await store.auditEntries(target: "ADA", before: .max, limit: 10) == [third, first])
        if let reopen { #expect(try await reopen().auditEntries(target: nil, before: .max, limit: 10) == [third, second, first]) }
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
        return TokenRecord(
            hash: hash, accountID: accountID, kind: kind, createdAt: round(createdAt), expiresAt: round(expiresAt), revoked: revoked,
            email: email)
    }
}
