import Accounts
import HTTPTypes
import Hummingbird

extension Problem {
    /// The answer to what the account service refused: 400 with every
    /// field's problem when a field breaks the form the API document
    /// publishes, 422 with every problem when the fields are well formed but
    /// not for the role, 422 for a confirmation token unknown, used or
    /// expired, 409 for a taken name or a deleted account, 401 for bad credentials, 403 for an
    /// unconfirmed or disabled account, 404 for an unknown one, 503 when the
    /// store failed.
    init(_ error: AccountError) {
        switch error {
        case .invalid(let problems):
            self = .badRequest("\(error)")
            fieldProblems = problems.map { FieldProblemJSON(field: $0.field.rawValue, problem: $0.problem) }
        case .notForRole(let problems):
            self = .unprocessable("\(error)")
            fieldProblems = problems.map { FieldProblemJSON(field: $0.field.rawValue, problem: $0.problem) }
        case .taken, .deleted: self = .conflict("\(error)")
        case .badCredentials: self = .unauthorized("\(error)")
        case .emailNotConfirmed, .disabled: self = Problem(status: .forbidden, detail: "\(error)")
        case .invalidToken, .wrongCurrentPassword: self = .unprocessable("\(error)")
        case .unknownAccount(let username): self = .notFound("there is no account named \(username); GET /v1/accounts lists them")
        case .storage: self = .unavailable("the account store cannot answer now; nothing was changed; try again shortly")
        }
    }
}

/// One field's problem in a problem document's `errors` member.
struct FieldProblemJSON: Codable, Equatable, Sendable {
    /// The request's field: `username`, `email`, `password`, `taxi`, `role`.
    var field: String
    /// What is wrong with it.
    var problem: String
}
