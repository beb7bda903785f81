import Synchronization

/// The ingest listeners' open TCP connections, counted together against
/// ``IngestConnectionLimits/maxConnections``.
final class ConnectionBudget: Sendable {
    private let open = Atomic<Int>(0)
    let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    /// Takes a place for a new connection; false when all are taken (the
    /// connection must then be closed, and nothing was taken).
    func take() -> Bool {
        guard open.add(1, ordering: .relaxed).newValue > limit else { return true }
        open.subtract(1, ordering: .relaxed)
        return false
    }

    /// Gives back the place of a closed connection.
    func giveBack() {
        open.subtract(1, ordering: .relaxed)
    }
}
