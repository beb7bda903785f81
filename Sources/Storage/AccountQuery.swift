/// Which accounts an administrator is looking for (SPEC A2): every
/// condition given must hold; none given finds every account.
public struct AccountQuery: Sendable, Equatable {
    /// Only accounts of this role.
    public var role: Role?
    /// Only accounts in this state.
    public var state: AccountState?
    /// Only accounts whose username or e-mail address contains this text,
    /// regardless of ASCII case (`ada` finds `Ada`, `ada@example.org` and `lovelada`).
    public var text: String?

    /// A query of the conditions given.
    public init(role: Role? = nil, state: AccountState? = nil, text: String? = nil) {
        self.role = role
        self.state = state
        self.text = text.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether `account` meets every condition, as the stores compare (ASCII case folded).
    public func matches(_ account: AccountRecord) -> Bool {
        if let role, account.role != role { return false }
        if let state, account.state != state { return false }
        if let text {
            let needle = Self.folded(text)
            return Self.folded(account.username).contains(needle) || account.email.map(Self.folded)?.contains(needle) == true
        }
        return true
    }

    /// `text` with ASCII capitals made small and every other character left as it is, as SQLite's `NOCASE` compares.
    public static func folded(_ text: String) -> String {
        String(decoding: text.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
    }
}

/// Where an account stands, as administrators search and see it.
public enum AccountState: String, Sendable, CaseIterable, Codable, CustomStringConvertible {
    /// May log in (a passenger once the e-mail address is confirmed).
    case active
    /// A passenger who registered and has not confirmed the e-mail address yet.
    case unconfirmed
    /// Disabled by an administrator: cannot log in, may be enabled again.
    case disabled
    /// Deleted: its personal data is erased; only its id and its anonymised rides remain.
    case deleted

    public var description: String { rawValue }
}

extension AccountRecord {
    /// Where the account stands: deleted, then disabled, then unconfirmed, else active.
    public var state: AccountState {
        if deleted { return .deleted }
        if disabled { return .disabled }
        if role == .passenger && !emailConfirmed { return .unconfirmed }
        return .active
    }
}
