import Accounts
import DispatchCore
import DispatchRuntime
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JSONKit
import Storage
import Testing
@testable import API

/// What an administrator does to accounts over the API (SPEC A2): search
/// and page, edit, disable and enable, delete with the rides kept
/// anonymised, password resets, and the audit log of all of it; and what
/// every account does to itself: a new e-mail address, a forgotten password.
@Suite(.timeLimit(.minutes(20))) struct AccountAdministrationAPITests {
    @Test func anAdministratorSearchesEditsDisablesAndEnablesAndTheAuditLogSaysWho() async throws {
        let harness = try await APIHarness()
        let admin = try await harness.token(.administrator)
        let deskSession = try await harness.token(.dispatcher)
        try await harness.accounts.createAccount(role: .passenger, username: "ada", password: APIHarness.password, email: "Ada@Example.org")
        try await harness.test { client in
            let found = try await client.call(.get, "/v1/accounts?q=EXAMPLE&role=passenger", token: admin).list()
            #expect(found.compactMap { $0["username"]?.scalarText } == ["pat", "ada"])
            #expect(found.allSatisfy { $0["state"]?.scalarText == "active" })
            let page = try await client.call(.get, "/v1/accounts?q=a&limit=2", token: admin)
            #expect(try page.list().count == 2)
            let next = try #require(page.headers[PagedResponse.link])
            #expect(next.contains("q=a&limit=2&after="), "the next page keeps the search: \(next)")
            #expect(try await client.call(.get, "/v1/accounts?state=sleeping", token: admin).status == .badRequest)

            let promoted = try await client.call(.patch, "/v1/accounts/dispatcher", token: admin, json: #"{"role": "planner", "email": "desk@example.org"}"#)
            #expect(promoted.status == .ok)
            #expect(promoted["role"] == "planner")
            #expect(promoted["email"] == "desk@example.org")
            #expect(try await client.call(.get, "/v1/fleet", token: deskSession).status == .unauthorized, "a new role ends the sessions")
            let passengerToDriver = try await client.call(.patch, "/v1/accounts/ada", token: admin, json: #"{"role": "driver"}"#)
            #expect(passengerToDriver.status == .unprocessableContent)
            #expect(passengerToDriver["detail"]?.contains("only staff roles") == true, "\(passengerToDriver)")
            #expect(try await client.call(.patch, "/v1/accounts/ada", token: admin, json: #"{"email": null}"#).status == .unprocessableContent)
            #expect(try await client.call(.patch, "/v1/accounts/ada", token: admin, json: #"{"email": "pat@example.com"}"#).status == .conflict)
            #expect(try await client.call(.patch, "/v1/accounts/ada", token: admin, json: "{}").status == .badRequest)
            #expect(try await client.call(.patch, "/v1/accounts/T1", token: admin, json: #"{"taxiId": "T404"}"#).status == .unprocessableContent)
            #expect(try await client.call(.patch, "/v1/accounts/nobody", token: admin, json: #"{"role": "planner"}"#).status == .notFound)

            #expect(try await client.call(.post, "/v1/accounts/ada/disable", token: admin)["state"] == "disabled")
            let refused = try await client.call(.post, "/v1/sessions", json: #"{"username": "ada", "password": "\#(APIHarness.password)"}"#)
            #expect(refused.status == .forbidden)
            #expect(try await client.call(.get, "/v1/accounts?state=disabled", token: admin).list().compactMap { $0["username"]?.scalarText } == ["ada"])
            #expect(try await client.call(.post, "/v1/accounts/ada/enable", token: admin)["state"] == "active")
            let again = try await client.call(.post, "/v1/sessions", json: #"{"username": "ada", "password": "\#(APIHarness.password)"}"#)
            #expect(again.status == .created)

            let audit = try await client.call(.get, "/v1/audit?target=ADA", token: admin).list()
            #expect(audit.compactMap { $0["action"]?.scalarText } == ["account.enable", "account.disable", "account.create"])
            #expect(audit.first?["actor"]?.scalarText == "administrator")
            let edit = try await client.call(.get, "/v1/audit?target=dispatcher", token: admin).list().first
            #expect(edit?["detail"]?.scalarText == "role dispatcher → planner; email none → desk@example.org")
            #expect(try await client.call(.get, "/v1/audit", token: deskSession).status == .unauthorized)
        }
    }

    @Test func aForgottenPasswordIsResetOnceFromTheEmailAndEveryOtherSessionEnds() async throws {
        let harness = try await APIHarness()
        let admin = try await harness.token(.administrator)
        let phone = try await harness.token(.passenger)
        try await harness.test { client in
            let unknown = try await client.call(.post, "/v1/password-resets", json: #"{"email": "nobody@example.org"}"#)
            let known = try await client.call(.post, "/v1/password-resets", json: #"{"email": "PAT@example.com"}"#)
            #expect(unknown.status == .accepted && known.status == .accepted)
            #expect(unknown["detail"]?.replacingOccurrences(of: "nobody@example.org", with: "X")
                    == known["detail"]?.replacingOccurrences(of: "PAT@example.com", with: "X"), "the answer tells nothing")
            let outbox = try await client.call(.get, "/v1/outbox", token: admin).list()
            #expect(outbox.count == 1, "no e-mail for an unknown address")
            #expect(outbox.first?["subject"]?.scalarText == "Set a new mytaxi password")
            let token = try #require(AccountsAPITests.confirmationToken(in: outbox.first?["body"]?.scalarText ?? ""))

            let weak = try await client.call(.post, "/v1/password-resets/confirmations", json: #"{"token": "\#(token)", "newPassword": "short"}"#)
            #expect(weak.status == .badRequest)
            let reset = try await client.call(.post, "/v1/password-resets/confirmations", json: #"{"token": "\#(token)", "newPassword": "r3set-pass-word"}"#)
            #expect(reset.status == .noContent)
            let twice = try await client.call(.post, "/v1/password-resets/confirmations", json: #"{"token": "\#(token)", "newPassword": "an0ther-pass-word"}"#)
            #expect(twice.status == .unprocessableContent, "the token works once")
            #expect(try await client.call(.get, "/v1/rides/current", token: phone).status == .unauthorized, "every session ends")
            let login = try await client.call(.post, "/v1/sessions", json: #"{"username": "pat", "password": "r3set-pass-word"}"#)
            #expect(login.status == .created)
            #expect(try await client.call(.get, "/v1/outbox", token: admin).list().first?["subject"]?.scalarText == "Your mytaxi password was changed")
            let confirmation = try await client.call(.post, "/v1/passengers/confirmations", json: #"{"token": "\#(token)"}"#)
            #expect(confirmation.status == .unprocessableContent, "a reset token confirms no address")

            let sent = try await client.call(.post, "/v1/accounts/pat/password-reset", token: admin)
            #expect(sent.status == .accepted)
            #expect(try await client.call(.get, "/v1/outbox", token: admin).list().first?["to"]?.scalarText == "pat@example.com")
            let noAddress = try await client.call(.post, "/v1/accounts/T1/password-reset", token: admin)
            #expect(noAddress.status == .unprocessableContent)
            #expect(noAddress["detail"]?.contains("reset-password") == true, "\(noAddress)")
        }
    }

    @Test func anAccountMovesToANewAddressOnlyOnceItIsConfirmed() async throws {
        let harness = try await APIHarness()
        let admin = try await harness.token(.administrator)
        let passenger = try await harness.token(.passenger)
        try await harness.test { client in
            let wrong = try await client.call(.put, "/v1/account/email", token: passenger, json: #"{"password": "not-it-1!", "email": "pat@new.example"}"#)
            #expect(wrong.status == .unprocessableContent)
            let taken = try await client.call(
                .put, "/v1/account/email", token: passenger, json: #"{"password": "\#(APIHarness.password)", "email": "nobody"}"#)
            #expect(taken.status == .badRequest)
            let asked = try await client.call(
                .put, "/v1/account/email", token: passenger, json: #"{"password": "\#(APIHarness.password)", "email": "pat@new.example"}"#)
            #expect(asked.status == .accepted)
            #expect(asked.body?["account"]?["email"]?.scalarText == "pat@example.com", "the old address stays until confirmed")
            let outbox = try await client.call(.get, "/v1/outbox", token: admin).list()
            #expect(outbox.compactMap { $0["to"]?.scalarText } == ["pat@example.com", "pat@new.example"], "the old address is told")
            let token = try #require(AccountsAPITests.confirmationToken(in: outbox.last?["body"]?.scalarText ?? ""))
            let moved = try await client.call(.post, "/v1/passengers/confirmations", json: #"{"token": "\#(token)"}"#)
            #expect(moved.status == .ok)
            #expect(moved["email"] == "pat@new.example")
            #expect(try await client.call(.get, "/v1/accounts/pat", token: admin)["email"] == "pat@new.example")
        }
    }

    @Test func aDeletedPassengerKeepsNoPersonalDataAndItsRidesStayAnonymised() async throws {
        let harness = try await APIHarness()
        let admin = try await harness.token(.administrator)
        let passenger = try await harness.token(.passenger)
        try await harness.test { client in
            let ride = try #require(try await client.call(.post, "/v1/rides", token: passenger, json: RideAPITests.pickup)["rideId"])
            let busy = try await client.call(.delete, "/v1/accounts/pat", token: admin)
            #expect(busy.status == .conflict)
            #expect(busy["detail"]?.contains(ride) == true, "\(busy)")
            #expect(try await client.call(.delete, "/v1/rides/\(ride)", token: passenger).status == .noContent)
            await harness.dispatcher.waitForWrites()

            let deleted = try await client.call(.delete, "/v1/accounts/pat", token: admin)
            #expect(deleted.status == .ok)
            let account = try #require(deleted.body?["account"])
            let placeholder = try #require(account["username"]?.scalarText)
            #expect(placeholder.hasPrefix("deleted~"))
            #expect(account["state"]?.scalarText == "deleted")
            #expect(account["email"] == nil)
            #expect(deleted.body?["ridesAnonymised"]?.scalarText == "1")
            #expect(try await client.call(.get, "/v1/rides/current", token: passenger).status == .unauthorized, "its sessions end")
            #expect(try await client.call(.get, "/v1/accounts?q=example.com", token: admin).list().isEmpty, "nothing finds the address")
            #expect(try await harness.dispatcher.history(ofPassenger: "pat").past.isEmpty)
            #expect(try await harness.dispatcher.history(ofPassenger: PassengerID(placeholder)).past.map(\.ride) == [ride])
            #expect(try await client.call(.post, "/v1/accounts/\(placeholder)/enable", token: admin).status == .conflict)
            #expect(try await client.call(.delete, "/v1/accounts/\(placeholder)", token: admin).status == .conflict)
            #expect(try await client.call(.delete, "/v1/accounts/administrator", token: admin).status == .conflict, "not itself")
            let reused = try await client.call(.post, "/v1/passengers", json: #"{"username": "pat", "email": "pat@example.com", "password": "long-enough-1"}"#)
            #expect(reused.status == .accepted, "the name and address are free again")
            let audit = try await client.call(.get, "/v1/audit?target=pat", token: admin).list().first
            #expect(audit?["action"]?.scalarText == "account.delete")
        }
    }
}
