import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// JSON calls to the service's HTTP API, many at once (one URLSession with
/// as many connections as the load needs).
struct APIClient: Sendable {
    let base: String
    private let session: URLSession

    /// A client of the API at `127.0.0.1:port`, allowing `connections` at once.
    init(port: Int, connections: Int) {
        base = "http://127.0.0.1:\(port)"
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = connections
        configuration.timeoutIntervalForRequest = 60
        session = URLSession(configuration: configuration)
    }

    /// `method path` with a bearer `token` and a JSON `body`: the status and the body parsed (nil when not JSON).
    func call(_ method: String, _ path: String, token: String? = nil, body: [String: Any]? = nil) async throws -> (status: Int, json: Any?) {
        guard let url = URL(string: base + path) else { throw APILoadError("not a URL: \(base + path)") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
        }
        let (data, response) = try await session.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        return (status, try? JSONSerialization.jsonObject(with: data))
    }

    /// The token of a login as `username`.
    func login(_ username: String, password: String) async throws -> String {
        let answer = try await call("POST", "/v1/sessions", body: ["username": username, "password": password])
        guard answer.status == 201, let token = (answer.json as? [String: Any])?["token"] as? String else {
            throw APILoadError("login of \(username) answered \(answer.status): \(answer.json ?? "")")
        }
        return token
    }
}

/// What stops the load driver, in words.
struct APILoadError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
