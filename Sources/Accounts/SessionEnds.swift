import Foundation
import Synchronization

/// A session that stopped working before its expiry, as told to whoever
/// keeps something open on it (the push sockets), so that it is closed at
/// once rather than at its next request.
public enum SessionEnd: Sendable, Equatable {
    /// The session of the token whose hash this is was logged out.
    case loggedOut(tokenHash: Data)
    /// Every session of the account was ended: it was disabled.
    case accountDisabled(accountID: Int64)
    /// Every session of the account but the one of `kept` (a token's hash;
    /// nil: every one) was ended: the account's password was changed on
    /// that one, or reset from a "forgot password" e-mail.
    case passwordChanged(accountID: Int64, kept: Data?)
    /// Every session of the account was ended: an administrator changed its
    /// role or its taxi, or deleted it.
    case accountChanged(accountID: Int64)
}

/// Tells every observer of the sessions this process ends (``SessionEnd``).
/// Observers are kept for the life of the service; each is called on the
/// thread that ended the session, so it should only hand the news on.
public final class SessionEnds: Sendable {
    private let observers = Mutex<[@Sendable (SessionEnd) -> Void]>([])

    init() {}

    /// Calls `observer` with every session ended from now on.
    public func observe(_ observer: @escaping @Sendable (SessionEnd) -> Void) {
        observers.withLock { $0.append(observer) }
    }

    func tell(_ end: SessionEnd) {
        for observer in observers.withLock({ $0 }) { observer(end) }
    }
}
