/// What an account may do (SPEC A1): every API endpoint names the roles
/// that may call it. Stored by its raw value, which the schema checks.
public enum Role: String, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// Registers, requests and reserves rides (registers alone, confirms an e-mail address).
    case passenger
    /// Drives one taxi: logs in from its terminal, accepts offers, reports the ride.
    case driver
    /// Answers phone callers: zones, queues, ETAs, ride requests on a caller's behalf.
    case dispatcher
    /// Edits and publishes zone sets.
    case planner
    /// Creates and disables accounts, reads the e-mail outbox.
    case administrator
    /// A partner application (calendar, line-up): travel times and expected waits.
    case partner

    public var description: String { rawValue }
}
