import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// JSON calls to the service's HTTP API for the simulated users; a call
/// answered 429 (too many logins from one address) waits as `Retry-After`
/// says and is sent again.
struct ServiceClient: Sendable {
    /// An answer: its status and its body parsed as a JSON object (empty when not one).
    struct Answer {
        let status: Int
        let json: [String: Any]
    }

    private let base: String
    private let session: URLSession

    /// A client of the API at `host:port`.
    init(host: String, port: Int) {
        base = "http://\(host):\(port)"
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 64
        configuration.timeoutIntervalForRequest = 60
        session = URLSession(configuration: configuration)
    }

    /// `method path` with a bearer `token` and a JSON `body`.
    /// - Throws: when the service cannot be reached.
    func call(_ method: String, _ path: String, token: String? = nil, body: [String: Any]? = nil) async throws -> Answer {
        guard let url = URL(string: base + path) else { throw SimulatorError("not a URL: \(base + path)") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
        }
        for _ in 0..<20 {
            let (data, response) = try await session.data(for: request)
            let http = response as? HTTPURLResponse
            if http?.statusCode == 429 {
                let wait = http?.value(forHTTPHeaderField: "Retry-After").flatMap(Double.init) ?? 5
                try await Task.sleep(for: .seconds(min(max(wait, 1), 60)))
                continue
            }
            let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
            return Answer(status: http?.statusCode ?? 0, json: json)
        }
        throw SimulatorError("\(method) \(path): still answered 429 (too many requests) after 20 tries")
    }

    /// The token of a login as `username`.
    /// - Throws: when the login is refused, with the service's answer.
    func login(_ username: String, password: String) async throws -> String {
        let answer = try await call("POST", "/v1/sessions", body: ["username": username, "password": password])
        guard answer.status == 201, let token = answer.json["token"] as? String else {
            throw SimulatorError("the login of \(username) was answered \(answer.status): \(answer.json["detail"] ?? "")")
        }
        return token
    }
}

/// Why a simulation cannot go on, in words.
public struct SimulatorError: Error, CustomStringConvertible {
    /// What went wrong, naming what to fix.
    public let description: String

    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
