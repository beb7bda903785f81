import Foundation

/// One administrative action, as the audit log keeps it (SPEC A2): who did
/// what to which account or thing, when, and the details that matter.
public struct AuditEntry: Sendable, Equatable, Codable {
    /// The store's id, increasing in the order the actions were written.
    public let id: Int64
    /// When it was done, to the millisecond.
    public let at: Date
    /// Who did it: an administrator's username, or `console` for `mytaxi accounts`.
    public let actor: String
    /// What was done: `account.create`, `account.disable`, `account.delete`, ...
    public let action: String
    /// To what: an account's username (as it was), a taxi or device id.
    public let target: String
    /// What changed, in words (never a password or a token).
    public let detail: String

    /// An entry as the store returns it.
    public init(id: Int64, at: Date, actor: String, action: String, target: String, detail: String) {
        self.id = id
        self.at = at
        self.actor = actor
        self.action = action
        self.target = target
        self.detail = detail
    }
}

/// An administrative action to write to the audit log: an ``AuditEntry`` but its id.
public struct AuditAction: Sendable, Equatable {
    /// Who did it.
    public var actor: String
    /// What was done.
    public var action: String
    /// To what.
    public var target: String
    /// What changed, in words.
    public var detail: String

    /// An action `actor` did to `target`.
    public init(actor: String, action: String, target: String, detail: String = "") {
        self.actor = actor
        self.action = action
        self.target = target
        self.detail = detail
    }
}
