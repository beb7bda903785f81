import Accounts
import DispatchCore
import DispatchRuntime
import FixRecords
import Foundation
import GeoKit
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JSONKit
import ServiceClock
import Storage
import Testing
@testable import API

/// The OpenAPI document is the API's contract: every route is in it and
/// every operation in it is a route, and each operation's `x-roles` is
/// exactly who gets past its role check (SPEC A1).
@Suite(.timeLimit(.minutes(20))) struct OpenAPIDocumentTests {
    /// `method path` of every operation of the document, paths as written there (`/v1/rides/{rideId}`).
    static func documentedOperations() throws -> [String: [String]] {
        let document = try JSONParser.parse(String(decoding: try #require(OpenAPIController.document), as: UTF8.self))
        guard case .object(let paths)? = document["paths"] else { throw APITestFailure("no paths") }
        var operations: [String: [String]] = [:]
        for (path, item) in paths {
            guard case .object(let methods) = item else { continue }
            for (method, operation) in methods {
                guard case .array(let roles)? = operation["x-roles"] else { throw APITestFailure("\(method) \(path) has no x-roles") }
                operations["\(method.uppercased()) \(path)"] = roles.compactMap(\.scalarText)
            }
        }
        return operations
    }

    @Test func everyRouteIsDocumentedAndEveryOperationIsARoute() async throws {
        let harness = try await APIHarness()
        let routes = Set(harness.server.router().routes.map { route in
            let path = route.path.description.split(separator: "/").map { part in
                part.hasPrefix(":") ? "{\(part.dropFirst())}" : String(part)
            }
            return "\(route.method) /" + path.joined(separator: "/")
        })
        #expect(routes == Set(try Self.documentedOperations().keys))
    }

    /// Every operation called by every role and without a token: 403
    /// exactly for the roles its `x-roles` leaves out, 401 without a token,
    /// never 401 with a valid token, never a 5xx.
    @Test func theRoleMatrixFollowsTheDocument() async throws {
        let harness = try await APIHarness()
        try await harness.report("T1")
        var tokens: [Role: String] = [:]
        for role in Role.allCases { tokens[role] = try await harness.token(role) }
        let operations = try Self.documentedOperations()
        let tokensByRole = tokens
        try await harness.test { client in
            for (operation, roles) in operations.sorted(by: { $0.key < $1.key }) where !roles.contains("public") {
                let parts = operation.split(separator: " ", maxSplits: 1)
                let method = HTTPRequest.Method(String(parts[0]))!
                let path = String(parts[1]).replacingOccurrences(of: "{rideId}", with: "R1")
                    .replacingOccurrences(of: "{reservationId}", with: "V1").replacingOccurrences(of: "{zoneId}", with: "161")
                    .replacingOccurrences(of: "{taxiId}", with: "T1").replacingOccurrences(of: "{username}", with: "pat")
                for role in Role.allCases {
                    if ["DELETE /v1/sessions/current", "POST /v1/accounts/{username}/disable", "DELETE /v1/accounts/{username}",
                        "POST /v1/taxis/{taxiId}/retire"].contains(operation) {
                        continue  // would end the session or account the rest of the matrix uses; their own tests cover them
                    }
                    // A driver reads his own report (T1's); another's is refused with 403, as the document says.
                    let ownPath = role == .driver ? path.replacingOccurrences(of: "/v1/drivers/pat/", with: "/v1/drivers/T1/") : path
                    let answer = try await client.call(method, ownPath + "?lon=-73.985&lat=40.755&from=-73.985,40.755&to=-73.98,40.76",
                                                       token: tokensByRole[role], json: "{}")
                    let allowed = roles.contains(role.rawValue)
                    #expect((answer.status == .forbidden) == !allowed, "\(role) \(operation): \(answer.status)")
                    #expect(answer.status != .unauthorized, "\(role) \(operation)")
                    #expect(answer.status.code < 500, "\(role) \(operation): \(answer.status) \(answer.body.map { "\($0)" } ?? "")")
                }
                let anonymous = try await client.call(method, path, json: "{}")
                #expect(anonymous.status == .unauthorized, "no token, \(operation): \(anonymous.status)")
                #expect(anonymous.headers[.wwwAuthenticate] != nil, "no token, \(operation): the 401 names the scheme")
            }
        }
    }

    @Test func theDocumentIsServedWithoutAToken() async throws {
        let harness = try await APIHarness()
        try await harness.test { client in
            let answer = try await client.call(.get, "/openapi.json")
            #expect(answer.status == .ok)
            #expect(answer["openapi"] == "3.1.0")
        }
    }
}
