import FixRecords

/// Why a store failed, for every store of the service (fixes, the dispatch
/// log and accounts today; zone versions as they come): callers decide
/// by case (retry, answer 503, stop at start) and show the description,
/// which says what was not done and what to do.
public enum StorageError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The store cannot be opened at `location` (a directory, a database
    /// name; never a password); `reason` is the database's own message.
    case unavailable(location: String, reason: String)
    /// The database server at `server` (host, port and database; never a
    /// password) cannot be used now: it is unreachable, refused the login
    /// or lost the connection; `reason` says which and what to do.
    case serverUnavailable(server: String, reason: String)
    /// A write failed and nothing of it was stored (disk full, I/O error,
    /// lost connection): whatever it carried must not be acknowledged.
    case writeFailed(reason: String)
    /// A read failed; the stored data is untouched.
    case readFailed(reason: String)
    /// The store is shutting down: the write was not attempted.
    case shuttingDown
    /// The write would give a second record what must be unique (`field`
    /// names it, e.g. `username`; `value` is the one asked for): nothing
    /// was stored.
    case conflict(field: String, value: String)
    /// A write to the dispatch log under `lease`, which is no longer held
    /// (another node took the engine over, or the lease ran out): nothing
    /// was stored, and this node must stop deciding.
    case notDispatchOwner(lease: DispatchLease)

    public var description: String {
        switch self {
        case .unavailable(let location, let reason):
            "cannot open the store in \(location): \(reason); check that it exists and is writable"
        case .serverUnavailable(let server, let reason):
            "the database server \(server) cannot be used: \(reason)"
        case .writeFailed(let reason):
            "the write failed and nothing of it was stored: \(reason)"
        case .readFailed(let reason):
            "the read failed: \(reason)"
        case .shuttingDown:
            "the store is shutting down; nothing was stored"
        case .conflict(let field, let value):
            "the \(field) \(value) is already taken; nothing was stored"
        case .notDispatchOwner(let lease):
            "\(lease) no longer holds the dispatch engine (another node took it over, or its lease ran out); nothing was stored"
        }
    }
}

extension StorageError: SinkClosingError {
    /// True for ``shuttingDown``.
    public var isSinkClosing: Bool { self == .shuttingDown }
}
