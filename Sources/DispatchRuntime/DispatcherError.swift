import DispatchCore
import Storage

/// Why the dispatcher did not carry out a command.
public enum DispatcherError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The command does not fit the current state; nothing changed.
    case rejected(DispatchError)
    /// The command itself is malformed (a coordinate out of range); nothing changed.
    case invalid(String)
    /// The command could not be made durable (nothing was changed and
    /// nobody was told), or the dispatcher is reloading its state after
    /// such a failure: try again shortly.
    case storage(StorageError)
    /// The dispatch log cannot be replayed: entry `sequence` is unreadable
    /// or does not apply; the log needs an operator's look.
    case corruptLog(sequence: Int64, reason: String)
    /// Another node of the service decides dispatch (`owner`, nil while
    /// none holds the lease): this one follows its log and decides nothing.
    case decidedElsewhere(owner: DispatchLease?)

    public var description: String {
        switch self {
        case .rejected(let error): "\(error)"
        case .invalid(let problem): problem
        case .storage(let error): "the dispatch log: \(error)"
        case .corruptLog(let sequence, let reason):
            "the dispatch log cannot be replayed at entry \(sequence): \(reason); keep the data directory for inspection"
        case .decidedElsewhere(let owner?): "dispatch is decided by \(owner), reached at \(owner.address)"
        case .decidedElsewhere(nil): "no node decides dispatch now (its owner's lease ran out); try again shortly"
        }
    }
}
