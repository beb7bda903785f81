import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// JSON calls to the service's HTTP API for the simulated users; a call
/// answered 429 (too many logins or registrations from one address) waits
/// as `Retry-After` says and is sent again.
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
        let (status, data) = try await send(method, path, token: token, body: body)
        let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return Answer(status: status, json: json)
    }

    /// `GET path` with a bearer `token`, answered 200 with a JSON array of objects.
    /// - Throws: when the service cannot be reached or answers otherwise.
    func list(_ path: String, token: String) async throws -> [[String: Any]] {
        let (status, data) = try await send("GET", path, token: token, body: nil)
        guard status == 200, let list = (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]] else {
            throw SimulatorError("GET \(path) was answered \(status): \(String(decoding: data, as: UTF8.self))")
        }
        return list
    }

    /// The status and body of `method path`, sent again while answered 429.
    private func send(_ method: String, _ path: String, token: String?, body: [String: Any]?) async throws -> (Int, Data) {
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
            return (http?.statusCode ?? 0, data)
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
