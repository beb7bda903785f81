import DispatchCore

/// `GET /v1/dispatch/state`: the engine's snapshot (its own Codable form,
/// which the dispatch log's snapshots use too) and the last log entry it includes.
struct DispatchStateJSON: Codable, Sendable {
    /// The number of the last dispatch log entry the state includes.
    var logSequence: Int64
    /// Taxis, queues, open requests, reservations and counters.
    var state: DispatchSnapshot
    /// Whether this node decides dispatch (always, on a single node).
    var decidesHere: Bool
    /// The node that decides dispatch (`--node-id`): nil on a single node,
    /// and while no node holds the lease.
    var decidedBy: String?
}
