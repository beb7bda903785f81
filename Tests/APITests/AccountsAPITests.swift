import Accounts
import DispatchCore
import DispatchRuntime
import FixRecords
import Foundation
import GeoKit
import Hummingbird
import HummingbirdTesting
import JSONKit
import ServiceClock
import Storage
import Testing
@testable import API

/// Accounts over the API (SPEC A1, A2): registration and its rules, e-mail
/// confirmation through the outbox, tokens that expire and are revoked,
/// administrators' accounts, and a rate limit on guessing.
@Suite(.timeLimit(.minutes(20))) struct AccountsAPITests {
    @Test func aPassengerRegistersConfirmsAndLogsIn() async throws {
        let harness = try await APIHarness()
        let admin = try await harness.token(.administrator)
        try await harness.test { client in
            let weak = try await client.call(.post, "/v1/passengers", json: #"{"username": "ann", "email": "ann@example.com", "password": "short"}"#)
            #expect(weak.status == .badRequest)
            let problems = try weak.list("errors")
            #expect(problems.allSatisfy { $0["field"]?.scalarText == "password" })
            #expect(weak["detail"]?.contains("digit") == true)

            let body = #"{"username": "ann", "email": "ann@example.com", "password": "long-enough-1"}"#
            let registered = try await client.call(.post, "/v1/passengers", json: body)
            #expect(registered.status == .accepted)
            #expect(registered["username"] == "ann")
            #expect(registered["detail"] == "an e-mail went to ann@example.com: confirm the address with its token, then log in")
            #expect(registered.body?["passwordHash"] == nil)
            let taken = try await client.call(.post, "/v1/passengers", json: body.replacingOccurrences(of: "\"ann\"", with: "\"ANN\""))
            #expect(taken.status == .conflict, "usernames are one regardless of case")

            let login = #"{"username": "ann", "password": "long-enough-1"}"#
            #expect(try await client.call(.post, "/v1/sessions", json: login).status == .forbidden, "A2: confirm first")
            let outbox = try await client.call(.get, "/v1/outbox", token: admin)
            guard let mail = try outbox.list().first?["body"]?.scalarText else {
                throw APITestFailure("no confirmation e-mail: \(outbox)")
            }
            let token = try #require(Self.confirmationToken(in: mail))
            #expect(try await client.call(.post, "/v1/passengers/confirmations", json: #"{"token": "wrong"}"#).status == .unprocessableContent)
            #expect(try await client.call(.post, "/v1/passengers/confirmations", json: #"{"token": "\#(token)"}"#).status == .ok)
            let session = try await client.call(.post, "/v1/sessions", json: login)
            #expect(session.status == .created)
            #expect(session["role"] == "passenger")
            #expect(session["expiresAt"] != nil)
        }
    }

    /// The longest base64url word of an e-mail: its token.
    static func confirmationToken(in mail: String) -> String? {
        mail.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
            .filter { $0.count >= 40 }.first.map(String.init)
    }

    @Test func aTokenIsNeededValidAndRevocable() async throws {
        let harness = try await APIHarness()
        let token = try await harness.token(.dispatcher)
        try await harness.test { client in
            let none = try await client.call(.get, "/v1/fleet")
            #expect(none.status == .unauthorized)
            #expect(none.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
            #expect(none.headers[.contentType] == "application/problem+json")
            #expect(try await client.call(.get, "/v1/fleet", token: "forged").status == .unauthorized)
            #expect(try await client.call(.get, "/v1/fleet", token: token).status == .ok)
            #expect(try await client.call(.get, "/v1/fleet?token=\(token)").status == .ok, "browsers' sockets pass the token in the query")
            #expect(try await client.call(.delete, "/v1/sessions/current", token: token).status == .noContent)
            #expect(try await client.call(.get, "/v1/fleet", token: token).status == .unauthorized, "revoked at logout")
            let later = try await harness.token(.dispatcher)
            harness.clock.advance(by: .seconds(13 * 3600))
            #expect(try await client.call(.get, "/v1/fleet", token: later).status == .unauthorized, "expired after 12 h")
        }
    }

    @Test func anAdministratorCreatesListsAndDisablesAccounts() async throws {
        let harness = try await APIHarness()
        let admin = try await harness.token(.administrator)
        try await harness.test { client in
            let unknownTaxi = #"{"role": "driver", "username": "T99", "password": "driving-4-ever"}"#
            let refused = try await client.call(.post, "/v1/accounts", token: admin, json: unknownTaxi)
            #expect(refused.status == .unprocessableContent)
            #expect(refused["detail"]?.contains("T99") == true)
            let driver = #"{"role": "driver", "username": "T2", "password": "\#(APIHarness.password)"}"#
            let created = try await client.call(.post, "/v1/accounts", token: admin, json: driver)
            #expect(created.status == .created)
            #expect(created["taxiId"] == "T2")
            #expect(try await client.call(.post, "/v1/accounts", token: admin, json: #"{"role": "king", "username": "x", "password": "p"}"#).status == .badRequest)
            let drivers = try await client.call(.get, "/v1/accounts?role=driver", token: admin)
            let listed = try drivers.list()
            #expect(Set(listed.compactMap { $0["username"]?.scalarText }) == ["T1", "T2"])

            let driverToken = try await harness.token("T2")
            #expect(try await client.call(.get, "/v1/driver", token: driverToken).status == .ok)
            #expect(try await client.call(.post, "/v1/accounts/T2/disable", token: admin).status == .ok)
            let stopped = try await client.call(.get, "/v1/driver", token: driverToken)
            #expect(stopped.status == .unauthorized, "stops at once")
            #expect(stopped["detail"]?.contains("disabled; ask an administrator") == true, "not told to log in again")
            let nobody = try await client.call(.post, "/v1/accounts/nobody/disable", token: admin)
            #expect(nobody.status == .notFound)
            #expect(nobody["detail"]?.contains("GET /v1/accounts lists them") == true)
            #expect(try await client.call(.post, "/v1/accounts/administrator/disable", token: admin).status == .conflict)
        }
    }

    /// Brute force gets 429 with a time to wait, not a free guess: five
    /// wrong passwords, then a wait that doubles with each further one.
    @Test func guessingPasswordsIsSlowedDown() async throws {
        let harness = try await APIHarness()
        try await harness.test { client in
            let guess = #"{"username": "dispatcher", "password": "guess-1234"}"#
            for _ in 0..<LoginThrottle.freeFailures {
                #expect(try await client.call(.post, "/v1/sessions", json: guess).status == .unauthorized)
            }
            let limited = try await client.call(.post, "/v1/sessions", json: guess)
            #expect(limited.status == .tooManyRequests)
            #expect(limited.headers[.retryAfter] == "2")
            let right = #"{"username": "dispatcher", "password": "\#(APIHarness.password)"}"#
            #expect(try await client.call(.post, "/v1/sessions", json: right).status == .tooManyRequests, "not even the right one")
            harness.clock.advance(by: .seconds(2))
            #expect(try await client.call(.post, "/v1/sessions", json: guess).status == .unauthorized)
            #expect(try await client.call(.post, "/v1/sessions", json: guess).headers[.retryAfter] == "4", "the wait doubles")
            harness.clock.advance(by: .seconds(4))
            #expect(try await client.call(.post, "/v1/sessions", json: right).status == .created)
            #expect(try await client.call(.post, "/v1/sessions", json: guess).status == .unauthorized, "a success clears the count")
        }
    }

    /// Credentials no account can have are refused before any check: a
    /// password bcrypt would cut at a NUL byte or after 72 bytes (it would
    /// log in with its first part), a username longer than any account's.
    @Test func aPasswordBcryptWouldShortenIsRefused() async throws {
        let harness = try await APIHarness()
        try await harness.test { client in
            let withNUL = #"{"username": "dispatcher", "password": "\#(APIHarness.password)\u0000zzz"}"#
            let answer = try await client.call(.post, "/v1/sessions", json: withNUL)
            #expect(answer.status == .badRequest)
            #expect(answer["detail"]?.contains("no NUL character") == true, "\(answer.body.map { "\($0)" } ?? "")")
            let long = #"{"username": "dispatcher", "password": "\#(String(repeating: "p", count: 73))"}"#
            #expect(try await client.call(.post, "/v1/sessions", json: long).status == .badRequest)
            let longName = #"{"username": "\#(String(repeating: "u", count: 65))", "password": "x"}"#
            #expect(try await client.call(.post, "/v1/sessions", json: longName).status == .badRequest)
        }
    }

    /// Registrations from one address are limited (20 a minute by default,
    /// `--registration-limit` for the demo's simulated passengers): beyond,
    /// 429 with a time to wait.
    /// A long list of accounts comes a page at a time, each page's `Link`
    /// naming the next, until the last page, which has none.
    @Test func accountsAreListedPageByPage() async throws {
        let harness = try await APIHarness()
        let admin = try await harness.token(.administrator)
        for number in 0..<5 {
            _ = try await harness.accounts.createAccount(role: .planner, username: "plan\(number)", password: APIHarness.password)
        }
        try await harness.test { client in
            var url: String? = "/v1/accounts?role=planner&limit=2"
            var pages: [[String]] = []
            while let next = url {
                let page = try await client.call(.get, next, token: admin)
                #expect(page.status == .ok)
                pages.append(try page.list().compactMap { $0["username"]?.scalarText })
                url = page.headers[PagedResponse.link].flatMap { link in
                    link.split(separator: ">").first.map { String($0.dropFirst()) }
                }
            }
            #expect(pages == [["planner", "plan0"], ["plan1", "plan2"], ["plan3", "plan4"]], "the harness's planner first")
            let all = try await client.call(.get, "/v1/accounts?role=planner", token: admin)
            #expect(try all.list().count == 6 && all.headers[PagedResponse.link] == nil, "500 a page by default")
            #expect(try await client.call(.get, "/v1/accounts?limit=0", token: admin).status == .badRequest)
        }
    }

    /// Registering cannot tell whether an address has an account: a taken
    /// address gets the answer a new one gets, and only the address learns
    /// (by e-mail) which account it has.
    @Test func aTakenAddressIsAnsweredAsANewOne() async throws {
        let harness = try await APIHarness()
        let admin = try await harness.token(.administrator)
        try await harness.test { client in
            func register(_ username: String, _ email: String) async throws -> APIAnswer {
                try await client.call(
                    .post, "/v1/passengers",
                    json: #"{"username": "\#(username)", "email": "\#(email)", "password": "long-enough-1"}"#)
            }
            let first = try await register("ann", "ann@example.com")
            let again = try await register("ann2", "ann@example.com")
            let fresh = try await register("bea", "bea@example.com")
            #expect(first.status == .accepted)
            #expect(again.status == first.status)
            #expect(again.headers[.location] == nil && first.headers[.location] == nil)
            #expect(again.body == .object([
                "username": .string("ann2"), "email": .string("ann@example.com"),
                "detail": .string("an e-mail went to ann@example.com: confirm the address with its token, then log in"),
            ]))
            #expect(fresh["detail"] == "an e-mail went to bea@example.com: confirm the address with its token, then log in")
            let outbox = try await client.call(.get, "/v1/outbox", token: admin).list()
            let toAnn = outbox.filter { $0["to"]?.scalarText == "ann@example.com" }.compactMap { $0["subject"]?.scalarText }
            #expect(toAnn == ["You already have a mytaxi account", "Confirm your mytaxi e-mail address"])
            let login = try await client.call(.post, "/v1/sessions", json: #"{"username": "ann2", "password": "long-enough-1"}"#)
            #expect(login.status == .unauthorized, "ann2 was never stored")
        }
    }

    @Test func registrationsFromOneAddressAreLimitedAsConfigured() async throws {
        for limit in [APIServer.registrationBurst, 30] {
            let harness = try await APIHarness(registrationsPerAddressPerMinute: limit)
            try await harness.test { client in
                func register(_ number: Int) async throws -> APIAnswer {
                    let name = "rider\(number)"
                    return try await client.call(
                        .post, "/v1/passengers",
                        json: #"{"username": "\#(name)", "email": "\#(name)@example.com", "password": "\#(APIHarness.password)"}"#)
                }
                for number in 0..<limit {
                    #expect(try await register(number).status == .accepted, "registration \(number + 1) of \(limit)")
                }
                let refused = try await register(limit)
                #expect(refused.status == .tooManyRequests)
                #expect(refused.headers[.retryAfter] != nil)
            }
        }
    }
}
