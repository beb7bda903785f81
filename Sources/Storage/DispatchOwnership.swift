/// Which node of a city's service runs the dispatch engine, when several
/// `mytaxi serve` nodes share one database: exactly one at a time, the
/// holder of a lease that it renews while it runs and that another node
/// may take once it has run out (its holder died, or lost the database).
///
/// Each new holder gets a higher epoch. A write to the dispatch log names
/// the lease it is made under (``FencedDispatchLog``) and is refused in the
/// same transaction when that lease is no longer held, so a deposed owner
/// that has not noticed yet cannot write: two owners never both decide.
/// Leases are timed by the store's clock (the database server's), never by
/// the nodes', whose clocks may disagree.
public protocol DispatchOwnership: Sendable {
    /// Takes the engine for `node` when nobody holds it or its holder's
    /// lease has run out, or renews `node`'s own live lease; either way the
    /// lease then runs `duration` from now. `address` is where the other
    /// nodes reach `node` (its `--advertise` URL), to pass commands on.
    /// - Returns: the lease `node` holds now: the same epoch when it renewed
    ///   a live lease, a higher one when it took the engine over; nil when
    ///   another node holds a live lease (``owner()`` says which).
    func claim(node: String, address: String, for duration: Duration) async throws(StorageError) -> DispatchLease?

    /// The node holding a live lease, nil when none does.
    func owner() async throws(StorageError) -> DispatchLease?

    /// Ends `lease` at once, so that another node takes the engine over
    /// without waiting for it to run out (a node draining for an upgrade).
    /// Does nothing when `lease` is no longer held.
    func release(_ lease: DispatchLease) async throws(StorageError)
}

/// A node's hold on the dispatch engine: its name, where it is reached, and
/// the epoch its writes to the dispatch log carry.
public struct DispatchLease: Sendable, Hashable, CustomStringConvertible {
    /// The node's name (`--node-id`).
    public let node: String
    /// Where the other nodes reach it (`--advertise`).
    public let address: String
    /// Which holding this is: higher for every new holder.
    public let epoch: Int64

    /// The lease of `node`, reached at `address`, in `epoch`.
    public init(node: String, address: String, epoch: Int64) {
        self.node = node
        self.address = address
        self.epoch = epoch
    }

    public var description: String { "node \(node) (epoch \(epoch))" }
}

/// A dispatch log that several nodes share, each write made under a
/// ``DispatchLease`` and refused when that lease is no longer held.
public protocol FencedDispatchLog: DispatchLog {
    /// Appends `writes` as ``DispatchLog/write(_:)`` does, in one
    /// transaction that also checks that `lease` is still held and live;
    /// a lease taken over meanwhile waits for this transaction to end.
    /// - Throws: ``StorageError/notDispatchOwner(lease:)`` when `lease` was
    ///   taken over or ran out: nothing was written.
    func write(_ writes: [DispatchLogWrite], holding lease: DispatchLease) throws(StorageError)
}
