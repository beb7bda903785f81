import Accounts
import HTTPTypes
import Hummingbird

extension Problem {
    /// The answer to what the account service refused (SPEC A2): 400 with
    /// every field's problem, 409 for a taken name, 401 for bad
    /// credentials, 403 for an unconfirmed or disabled account, 404 for an
    /// unknown one, 503 when the store failed.
    init(_ error: AccountError) {
        switch error {
        case .invalid(let problems):
            self = .badRequest("\(error)")
            fieldProblems = problems.map { FieldProblemJSON(field: $0.field.rawValue, problem: $0.problem) }
        case .taken: self = .conflict("\(error)")
        case .badCredentials: self = .unauthorized("\(error)")
        case .emailNotConfirmed, .disabled: self = Problem(status: .forbidden, detail: "\(error)")
        case .invalidToken: self = .badRequest("\(error)")
        case .unknownAccount(let username): self = .notFound("there is no account named \(username); GET /v1/accounts lists them")
        case .storage: self = .unavailable("the account store cannot answer now; nothing was changed; try again shortly")
        }
    }
}

/// One field's problem in a problem document's `errors` member.
struct FieldProblemJSON: Codable, Equatable, Sendable {
    /// The request's field: `username`, `email`, `password`, `taxi`.
    var field: String
    /// What is wrong with it.
    var problem: String
}
