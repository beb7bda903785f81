import Foundation

/// How the simulated passengers get their accounts, as a passenger app's
/// users do: each registers itself (`POST /v1/passengers`), then confirms
/// its e-mail address with the token of the confirmation e-mail
/// (`POST /v1/passengers/confirmations`), then logs in. The service's
/// outbox stands in for the passengers' mailboxes: the administrator
/// reads it (`GET /v1/outbox`). A passenger who already has a confirmed
/// account just logs in; one registered but never confirmed (a run cut
/// short) is confirmed with the e-mail still in the outbox.
struct PassengerSignUp: Sendable {
    let client: ServiceClient
    /// Every simulated passenger's password.
    let password: String
    /// The administrator's token, to read the outbox with.
    let administratorToken: String

    /// The most e-mails one read of the outbox returns (`GET /v1/outbox?limit=`).
    private static let outboxLimit = 1000
    /// Passengers signed up between two reads of the outbox: their e-mails
    /// are among the newest ``outboxLimit``, also when each was sent twice.
    private static let batch = 400

    /// What a passenger needs before logging in.
    private enum Need: Sendable {
        case token(String)
        case registration
        case confirmation
    }

    /// The tokens of a login of each of `usernames`, in order, registering
    /// and confirming first those without a confirmed account.
    /// - Throws: ``SimulatorError`` naming the passenger whose registration,
    ///   confirmation or login the service refused.
    func tokens(for usernames: [String]) async throws -> [String] {
        var tokens: [String] = []
        for start in stride(from: 0, to: usernames.count, by: Self.batch) {
            let names = Array(usernames[start..<min(start + Self.batch, usernames.count)])
            tokens += try await signUp(names)
        }
        return tokens
    }

    private func signUp(_ usernames: [String]) async throws -> [String] {
        let needs = try await concurrentlyInOrder(usernames.indices, width: 16) { [self] index in
            try await need(of: usernames[index])
        }
        _ = try await concurrentlyInOrder(usernames.indices, width: 16) { [self] index in
            if case .registration = needs[index] { try await register(usernames[index]) }
        }
        let unconfirmed = usernames.indices.filter {
            if case .token = needs[$0] { return false }
            return true
        }
        guard !unconfirmed.isEmpty else { return needs.compactMap(Self.token) }
        let confirmationTokens = try await readOutbox()
        _ = try await concurrentlyInOrder(unconfirmed.indices, width: 16) { [self] position in
            let username = usernames[unconfirmed[position]]
            guard let token = confirmationTokens[Self.email(of: username)] else {
                throw SimulatorError("no confirmation e-mail to \(Self.email(of: username)) in the service's outbox")
            }
            let answer = try await client.call("POST", "/v1/passengers/confirmations", body: ["token": token])
            guard answer.status == 200 else {
                throw SimulatorError("confirming \(username)'s e-mail address was answered \(answer.status): \(answer.json["detail"] ?? "")")
            }
        }
        return try await concurrentlyInOrder(usernames.indices, width: 16) { [self] index in
            if let token = Self.token(needs[index]) { return token }
            return try await client.login(usernames[index], password: password)
        }
    }

    /// A login's token; else whether the account is missing (401) or unconfirmed (403).
    private func need(of username: String) async throws -> Need {
        let answer = try await client.call("POST", "/v1/sessions", body: ["username": username, "password": password])
        switch answer.status {
        case 201:
            guard let token = answer.json["token"] as? String else { throw SimulatorError("the login of \(username) gave no token") }
            return .token(token)
        case 401: return .registration
        case 403: return .confirmation
        default: throw SimulatorError("the login of \(username) was answered \(answer.status): \(answer.json["detail"] ?? "")")
        }
    }

    private func register(_ username: String) async throws {
        let answer = try await client.call(
            "POST", "/v1/passengers", body: ["username": username, "email": Self.email(of: username), "password": password])
        guard answer.status == 202 else {
            throw SimulatorError("the registration of \(username) was answered \(answer.status): \(answer.json["detail"] ?? "")")
        }
    }

    /// The token of the newest confirmation e-mail to each address of the
    /// outbox: the e-mail's first indented line (where the service puts it,
    /// on a line of its own).
    private func readOutbox() async throws -> [String: String] {
        let answer = try await client.list("/v1/outbox?limit=\(Self.outboxLimit)", token: administratorToken)
        var tokens: [String: String] = [:]
        for email in answer {
            guard let to = email["to"] as? String, tokens[to] == nil, let body = email["body"] as? String,
                  let line = body.split(separator: "\n").first(where: { $0.hasPrefix("    ") }) else { continue }
            tokens[to] = line.trimmingCharacters(in: .whitespaces)
        }
        return tokens
    }

    /// A simulated passenger's e-mail address.
    static func email(of username: String) -> String { "\(username)@example.com" }

    private static func token(_ need: Need) -> String? {
        if case .token(let token) = need { return token }
        return nil
    }
}
