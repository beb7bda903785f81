/// Why the service closed a push socket, in the close frame: a code of
/// the application's range (4000–4999), so that a client can tell a
/// session that ended (log in again) from a network failure (reconnect),
/// and a sentence saying so.
enum PushClose: Sendable, Equatable {
    /// The session was logged out.
    case loggedOut
    /// The session expired.
    case sessionExpired
    /// The account was disabled.
    case accountDisabled
    /// The account's password was changed on another session.
    case passwordChanged
    /// An administrator changed the account's role or taxi, or deleted it.
    case accountChanged
    /// The service is stopping (WebSocket's 1001, going away).
    case serviceStopping

    /// The close code.
    var code: UInt16 {
        switch self {
        case .loggedOut: 4001
        case .sessionExpired: 4002
        case .accountDisabled: 4003
        case .passwordChanged: 4004
        case .accountChanged: 4005
        case .serviceStopping: 1001
        }
    }

    /// The close reason, for people.
    var reason: String {
        switch self {
        case .loggedOut: "the session was logged out: log in again with POST /v1/sessions"
        case .sessionExpired: "the session expired: log in again with POST /v1/sessions"
        case .accountDisabled: "the account was disabled"
        case .passwordChanged: "the account's password was changed: log in again with the new one"
        case .accountChanged: "an administrator changed the account: log in again"
        case .serviceStopping: "the service is stopping: connect again in a moment"
        }
    }
}
