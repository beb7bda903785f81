import Accounts
import DispatchCore
import Foundation
import GeoKit
import HTTPTypes
import JSONKit
import Storage
import Testing
@testable import API

/// The published document's constraints against what the server takes: a
/// value the document accepts is never refused as malformed (the server's
/// own check passes, or the API does not answer 400), and the values at
/// and just past each documented bound fall on the side the server puts
/// them. The document may be stricter than the server, never looser.
@Suite(.timeLimit(.minutes(20))) struct OpenAPIConstraintsTests {
    /// The published document.
    static func document() throws -> JSONValue {
        try JSONParser.parse(String(decoding: try #require(OpenAPIController.document), as: UTF8.self))
    }

    /// The schema of parameter `name` of operation `method path`.
    static func parameterSchema(_ method: String, _ path: String, _ name: String) throws -> JSONValue {
        guard case .array(let parameters)? = try document()["paths"]?[path]?[method]?["parameters"],
              let parameter = parameters.first(where: { $0["name"]?.scalarText == name }), let schema = parameter["schema"] else {
            throw APITestFailure("\(method) \(path) has no parameter \(name)")
        }
        return schema
    }

    /// The schema of property `name` of component schema `component`.
    static func propertySchema(_ component: String, _ name: String) throws -> JSONValue {
        guard let schema = try document()["components"]?["schemas"]?[component]?["properties"]?[name] else {
            throw APITestFailure("\(component) has no property \(name)")
        }
        return schema
    }

    /// Whether `text` keeps to string schema `schema`: its pattern (whole
    /// text, as JSON Schema's anchored patterns mean it) and its lengths in code points.
    static func accepts(_ schema: JSONValue, _ text: String) throws -> Bool {
        let pattern = try #require(schema["pattern"]?.scalarText, "the schema has a pattern")
        let expression = try NSRegularExpression(pattern: pattern)
        let whole = NSRange(text.startIndex..., in: text)
        let matches = expression.firstMatch(in: text, range: whole).map { $0.range == whole } ?? false
        let length = text.unicodeScalars.count
        let minimum = schema["minLength"]?.scalarText.flatMap { Int($0) } ?? 0
        let maximum = schema["maxLength"]?.scalarText.flatMap { Int($0) } ?? Int.max
        return matches && (minimum...maximum).contains(length)
    }

    /// `LON,LAT` query parameters: WGS84's bounds are in, one step past them
    /// out, exactly as the server reads them; nothing the pattern takes is a 400.
    @Test func theLonLatPatternTakesWhatTheServerTakesAtTheBounds() async throws {
        let schema = try Self.parameterSchema("get", "/v1/eta", "from")
        let inside = ["180,90", "-180,-90", "180.0,-90.000", "0,0", "-0,-0", "-73.9855,40.758", "179.999999999999999,89.999999999999999"]
        let outside = ["180.1,0", "-180.000001,0", "0,90.5", "0,-91", "181,0", "", ",", "-73.98", "-73.98,40.75,1", "east,north", "1e2,3"]
        for text in inside { #expect(try Self.accepts(schema, text), "the document refuses \(text)") }
        for text in outside { #expect(try !Self.accepts(schema, text), "the document accepts \(text)") }
        let harness = try await APIHarness()
        let token = try await harness.token(.dispatcher)
        try await harness.test { client in
            for text in inside + outside {
                let encoded = try #require(text.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
                let answer = try await client.call(.get, "/v1/eta?from=\(encoded)&to=-73.98,40.76", token: token)
                if try Self.accepts(schema, text) {
                    #expect(answer.status != .badRequest, "from=\(text) keeps to the document but is a 400: \(answer)")
                } else if text != "1e2,3" {
                    #expect(answer.status == .badRequest, "from=\(text) breaks the document but is \(answer.status)")
                }
            }
        }
    }

    /// `lon=` and `lat=`: the document's bounds are WGS84's, which the server checks inclusively.
    @Test func lonAndLatParametersHaveWGS84sBounds() throws {
        let lon = try Self.parameterSchema("get", "/v1/zones/at", "lon")
        let lat = try Self.parameterSchema("get", "/v1/zones/at", "lat")
        #expect([lon["minimum"], lon["maximum"], lat["minimum"], lat["maximum"]] == [.number(-180), .number(180), .number(-90), .number(90)])
        #expect(Coordinate(longitude: -180, latitude: -90).isInRange && Coordinate(longitude: 180, latitude: 90).isInRange)
        #expect(!Coordinate(longitude: 180.000001, latitude: 0).isInRange && !Coordinate(longitude: 0, latitude: -90.000001).isInRange)
    }

    /// Ride and reservation ids: everything the pattern takes is read as an id.
    @Test func engineIdPatternsTakeOnlyIdsTheServerReads() throws {
        for (path, name, letter) in [("/v1/rides/{rideId}", "rideId", Character("R")), ("/v1/reservations/{reservationId}", "reservationId", "V")] {
            let schema = try Self.parameterSchema("get", path, name)
            for text in ["\(letter)1", "7", "\(letter)999999999999", "\(letter)0", "0", "\(letter)1234567890123", "\(letter)-1", "X1", ""] {
                if try Self.accepts(schema, text) {
                    #expect((letter == "R" ? RideRequestID(text: text)?.number : ReservationID(text: text)?.number) != nil, "\(name) \(text)")
                }
            }
            #expect(try Self.accepts(schema, "\(letter)12") && Self.accepts(schema, "\(letter)999999999999"))
            #expect(try !Self.accepts(schema, "\(letter)0") && !Self.accepts(schema, "0"))
        }
    }

    /// New accounts' usernames, e-mail addresses and passwords: what the
    /// document takes has no problem for the account service, and the
    /// service's limits are the document's.
    @Test func accountFieldsTheDocumentTakesPassTheAccountRules() throws {
        let username = try Self.propertySchema("RegistrationBody", "username")
        let usernames = ["a", "TX000001", "ada.l_b-2", String(repeating: "x", count: 64), String(repeating: "x", count: 65),
                         "", "-ada", ".ada", "ada lovelace", "adä", "ada@home"]
        for text in usernames where try Self.accepts(username, text) {
            #expect(AccountValidation.usernameProblems(text).isEmpty, "username \(text)")
        }
        #expect(try Self.accepts(username, String(repeating: "x", count: 64)) && !Self.accepts(username, String(repeating: "x", count: 65)))

        let email = try Self.propertySchema("RegistrationBody", "email")
        let emails = ["ada@example.com", "a.b+c@mail.example.org", "x@y.z", "\(String(repeating: "l", count: 64))@example.org",
                      "\(String(repeating: "l", count: 65))@example.org", "", "ada", "ada@", "@example.org", "ada@example",
                      "ada@-example.org", "ada@example-.org", "a da@example.org", "a\"b@example.org", "ada@exa_mple.org", "adä@example.org"]
        for text in emails where try Self.accepts(email, text) {
            #expect(AccountValidation.emailProblems(text).isEmpty, "e-mail \(text)")
        }
        #expect(try Self.accepts(email, "ada@example.com") && !Self.accepts(email, "ada@example"))

        let password = try Self.propertySchema("RegistrationBody", "password")
        let passwords = ["schema-pass-1", "s3cret-pass", "a1!aaaaa", "1!      ", "!" + String(repeating: "7", count: 71),
                         "a1!aaaa", "12345678", "abcdefgh!", "abcdefgh1", "!" + String(repeating: "7", count: 72), "ü1!aaaaaa", "a1!a\u{0}aaaa"]
        for text in passwords where try Self.accepts(password, text) {
            #expect(PasswordPolicy().problems(in: text).isEmpty, "password \(text)")
        }
        #expect(try Self.accepts(password, "a1!aaaaa") && !Self.accepts(password, "a1!aaaa"))
        #expect(try Self.accepts(password, "!" + String(repeating: "7", count: 71)) && !Self.accepts(password, "!" + String(repeating: "7", count: 72)))

        let login = try Self.propertySchema("LoginBody", "password")
        for text in [String(repeating: "a", count: 72), String(repeating: "a", count: 73), String(repeating: "ü", count: 18),
                     String(repeating: "ü", count: 37), String(repeating: "😀", count: 18), "a\u{0}b"] where try Self.accepts(login, text) {
            #expect(AccountService.loginProblem(username: "ada", password: text) == nil, "login password of \(text.utf8.count) bytes")
        }
    }
}
