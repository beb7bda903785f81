import Storage
import Synchronization

/// A write to the dispatch log, tagged with the epoch of the engine state
/// it was decided on.
struct EpochWrite: Sendable {
    let epoch: Int
    let write: DispatchLogWrite
}

/// Keeps the dispatch log consistent after a failed write. Once a write
/// fails, every write decided on the same, now lost, state must fail too,
/// even when the store has recovered: the gate moves to a new epoch and
/// lets through only writes of that epoch, which the dispatcher uses once
/// it has reloaded its state from the log.
final class DispatchLogGate: Sendable {
    private let epoch = Mutex(0)
    private let log: any DispatchLog

    init(log: any DispatchLog) {
        self.log = log
    }

    /// The epoch writes must carry to be written.
    var currentEpoch: Int { epoch.withLock { $0 } }

    /// Writes `writes` when all are of the current epoch; a failed write
    /// starts a new epoch. Runs on the group committer's thread.
    func write(_ writes: [EpochWrite]) throws(StorageError) {
        try epoch.withLock { (epoch: inout Int) throws(StorageError) in
            guard writes.allSatisfy({ $0.epoch == epoch }) else {
                throw .writeFailed(reason: "an earlier write of the dispatch log failed; the dispatcher is reloading its state")
            }
            do throws(StorageError) {
                try log.write(writes.map(\.write))
            } catch {
                epoch += 1
                throw error
            }
        }
    }
}
