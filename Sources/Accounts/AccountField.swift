/// A field of an account that a caller supplies, as problems and conflicts
/// name it; the raw value is the name the API uses for it.
public enum AccountField: String, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// The login name.
    case username
    /// The e-mail address.
    case email
    /// The password.
    case password
    /// The taxi a driver drives.
    case taxi
    /// What the account may do.
    case role

    public var description: String {
        switch self {
        case .username: "username"
        case .email: "e-mail address"
        case .password: "password"
        case .taxi: "taxi"
        case .role: "role"
        }
    }
}
