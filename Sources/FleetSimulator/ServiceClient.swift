import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// JSON calls to the service's HTTP API for the simulated users, which
/// retry as a city's apps should: a call answered 429 (too many logins or
/// registrations from one address) waits as `Retry-After` says and is sent
/// again; one that got no answer (the node died, the connection was cut) or
/// a 502, 503 or 504 (a node draining, dispatch changing hands) is sent
/// again for up to ``retryWindow`` (each try waits 20 s at most), a call that changes something with the
/// same `Idempotency-Key` each time, so that it is carried out once. A
/// call still answered 502, 503 or 504 when the window closes has failed,
/// as one never answered has: it is thrown, never taken for the service's
/// refusal.
struct ServiceClient: Sendable {
    /// An answer: its status and its body parsed as a JSON object (empty when not one).
    struct Answer {
        let status: Int
        let json: [String: Any]
    }

    private let base: String
    private let session: URLSession
    private let onRetry: @Sendable () -> Void

    /// How long a call is tried again after failures that did nothing
    /// sure: long enough for another node to take dispatch over, or for
    /// PostgreSQL's standby to be promoted.
    static let retryWindow: Duration = .seconds(60)

    /// A client of the API at `host:port`; `onRetry` hears of every call sent again after a failure.
    init(host: String, port: Int, onRetry: @escaping @Sendable () -> Void = {}) {
        base = "http://\(host):\(port)"
        self.onRetry = onRetry
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 64
        configuration.timeoutIntervalForRequest = 20
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

    /// The status and body of `method path`, sent again while answered 429,
    /// and, within ``retryWindow``, while unanswered or answered 502, 503 or 504.
    private func send(_ method: String, _ path: String, token: String?, body: [String: Any]?) async throws -> (Int, Data) {
        guard let url = URL(string: base + path) else { throw SimulatorError("not a URL: \(base + path)") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if method != "GET" { request.setValue(UUID().uuidString, forHTTPHeaderField: "Idempotency-Key") }
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
        }
        let giveUp = ContinuousClock.now + Self.retryWindow
        var backoff = 0.25
        for _ in 0..<100 {
            let answer: (data: Data, response: URLResponse)
            do {
                answer = try await session.data(for: request)
            } catch where ContinuousClock.now < giveUp {
                onRetry()
                try await Task.sleep(for: .seconds(backoff))
                backoff = min(backoff * 2, 4)
                continue
            }
            let http = answer.response as? HTTPURLResponse
            let status = http?.statusCode ?? 0
            let wait = http?.value(forHTTPHeaderField: "Retry-After").flatMap(Double.init)
            if status == 429 {
                try await Task.sleep(for: .seconds(min(max(wait ?? 5, 1), 60)))
                continue
            }
            if [502, 503, 504].contains(status) {
                guard ContinuousClock.now < giveUp else {
                    throw SimulatorError("\(method) \(path): still answered \(status) when the client stopped retrying")
                }
                onRetry()
                try await Task.sleep(for: .seconds(min(wait ?? backoff, 4)))
                backoff = min(backoff * 2, 4)
                continue
            }
            return (status, answer.data)
        }
        throw SimulatorError("\(method) \(path): still answered 429 (too many requests) after 100 tries")
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
