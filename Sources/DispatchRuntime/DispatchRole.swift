import Storage

/// Whether a node's dispatcher decides, or follows the dispatch log that
/// another node writes (a service of several nodes on one database, where
/// exactly one decides at a time).
public enum DispatchRole: Sendable, Equatable, CustomStringConvertible {
    /// It decides: the service's only node (nil), or the holder of the lease.
    case deciding(DispatchLease?)
    /// Another node decides (`owner`; nil while nobody holds the lease): this
    /// one replays that node's log, so that its reads and push sockets keep
    /// up, and refuses commands with ``DispatcherError/decidedElsewhere(owner:)``.
    case following(owner: DispatchLease?)

    /// Whether this node decides.
    public var decides: Bool {
        if case .deciding = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .deciding(nil): "deciding alone"
        case .deciding(let lease?): "deciding as \(lease)"
        case .following(let owner?): "following \(owner)"
        case .following(nil): "following, no node decides"
        }
    }
}
