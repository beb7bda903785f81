import ServiceClock
import Synchronization

/// Dispatch leases in memory, timed by a ``ServiceClock``: nodes of one
/// test process sharing an ``InMemoryDispatchLog``, and the contract the
/// PostgreSQL leases are held to, on a manual clock.
public final class InMemoryDispatchOwnership: DispatchOwnership {
    private struct Holding {
        var lease: DispatchLease
        var until: Duration
    }

    private let clock: any ServiceClock
    private let state = Mutex<(holding: Holding?, lastEpoch: Int64)>((nil, 0))

    /// No holder yet; leases run on `clock`'s monotonic time.
    public init(clock: any ServiceClock) {
        self.clock = clock
    }

    public func claim(node: String, address: String, for duration: Duration) async throws(StorageError) -> DispatchLease? {
        let now = clock.uptime
        return state.withLock { state in
            if let holding = state.holding, holding.until > now, holding.lease.node != node { return nil }
            let renewing = state.holding.map { $0.until > now && $0.lease.node == node } ?? false
            if !renewing { state.lastEpoch += 1 }
            let lease = DispatchLease(node: node, address: address, epoch: state.lastEpoch)
            state.holding = Holding(lease: lease, until: now + duration)
            return lease
        }
    }

    public func owner() async throws(StorageError) -> DispatchLease? {
        let now = clock.uptime
        return state.withLock { state in state.holding.flatMap { $0.until > now ? $0.lease : nil } }
    }

    public func release(_ lease: DispatchLease) async throws(StorageError) {
        state.withLock { state in
            if state.holding?.lease == lease { state.holding = nil }
        }
    }

    /// Runs `body` while `lease` is held and live, holding off any claim
    /// until it returns: the in-memory log's fenced write.
    /// - Throws: ``StorageError/notDispatchOwner(lease:)`` when it is not.
    func whileHolding<T>(_ lease: DispatchLease, _ body: () throws(StorageError) -> T) throws(StorageError) -> T {
        let now = clock.uptime
        return try state.withLock { (state) throws(StorageError) -> T in
            guard let holding = state.holding, holding.lease == lease, holding.until > now else {
                throw .notDispatchOwner(lease: lease)
            }
            return try body()
        }
    }
}
