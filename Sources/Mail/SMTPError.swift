/// Why an e-mail did not reach the relay: whether trying again may help
/// decides between a retry and giving up.
public enum SMTPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The relay could not be reached, went away, timed out, or answered 4xx: try again later.
    case transient(String)
    /// The relay refused the e-mail for good (5xx), or the TLS the relay must offer is missing.
    case permanent(String)
    /// The relay's settings are wrong (a bad URL, a missing password): the service does not start.
    case misconfigured(String)

    /// Whether a later attempt may succeed.
    public var isTransient: Bool {
        if case .transient = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .transient(let reason), .permanent(let reason), .misconfigured(let reason): reason
        }
    }
}
