/// One thing wrong with one field of a request, worded for the person who
/// filled it in: "the password needs at least one digit".
public struct FieldProblem: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The field that is wrong.
    public let field: AccountField
    /// What is wrong with it and what it should be.
    public let problem: String

    /// A problem with `field`.
    public init(field: AccountField, problem: String) {
        self.field = field
        self.problem = problem
    }

    public var description: String { problem }
}
